import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { DateRange } from './report-periods.ts';

/** One GA4 day as the sync stored it (analytics_daily). */
export interface EngagementDay {
  date: string;
  sessions: number;
  page_views: number;
  /** GA4's bounce rate is the share of sessions that were not engaged: 1 - engagement rate. */
  bounce_rate: number;
  conversions: number;
}

/**
 * The engagement report's and the timeline's reads: GA4's days of a site, and the moves of its
 * tasks that changed the live site (completed, rolled back) or confirmed it (verified). Every
 * read names the site: the service has checked the caller may see it.
 */
export function createEngagementRepo(db: Kysely<DB>) {
  return {
    async days(siteId: string, range: DateRange): Promise<EngagementDay[]> {
      const rows = await db.selectFrom('analytics_daily').select([sql<string>`date::text`.as('date'), 'sessions', 'page_views', 'bounce_rate', 'conversions'])
        .where('site_id', '=', siteId).where('date', '>=', range.start).where('date', '<=', range.end).orderBy('date').execute();
      return rows.map((r) => ({ date: r.date, sessions: Number(r.sessions), page_views: Number(r.page_views), bounce_rate: Number(r.bounce_rate), conversions: Number(r.conversions) }));
    },

    /**
     * Tasks of the site that went live, were rolled back or were verified between two instants, oldest first (at most
     * 500: a chart cannot show more markers than that and still be read).
     */
    async changes(siteId: string, from: Date, to: Date) {
      const { rows } = await sql<{ task_id: string; title: string; type: string; target: string; event: 'completed' | 'rolled_back' | 'verified'; at: Date }>`
        select t.id as task_id, t.title, t.type, t.target, e.to_status as event, e.at
        from task_events e join tasks t on t.id = e.task_id
        where t.site_id = ${siteId} and e.to_status in ('completed', 'rolled_back') and e.at >= ${from} and e.at < ${to}
        union all
        select t.id, t.title, t.type, t.target, 'verified', v.checked_at
        from task_verifications v join tasks t on t.id = v.task_id
        where t.site_id = ${siteId} and v.status = 'verified' and v.checked_at >= ${from} and v.checked_at < ${to}
        order by at, task_id limit 500`.execute(db);
      return rows.map((r) => ({ ...r, at: new Date(r.at) }));
    },
  };
}

export type EngagementRepo = ReturnType<typeof createEngagementRepo>;
