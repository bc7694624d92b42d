import { sql, type Kysely } from 'kysely';
import type { DB, TaskStatus } from '../../db/types.ts';
import type { DateRange } from '../analytics/report-periods.ts';
import { pacificBounds } from '../analytics/pacific-days.ts';

export interface KeywordMoveRow {
  kind: 'gained' | 'lost';
  query: string;
  position: number | null;
  previous_position: number | null;
  impressions: number;
  previous_impressions: number;
  clicks: number;
}

/**
 * The report's own sections, one query each; the caller has checked the site is the user's
 * (sites service getSite), so every query is scoped by that site's id.
 */
export function createReportsRepo(db: Kysely<DB>) {
  return {
    /**
     * Queries that entered the top 10 (impression-weighted position) this period, from outside it or from no position at all
     * in the comparison period, and those that left it; most impressions (in the period they ranked) first, `limit` each.
     */
    async keywordMoves(siteId: string, range: DateRange, comparison: DateRange, limit: number): Promise<KeywordMoveRow[]> {
      const { rows } = await sql<KeywordMoveRow>`
        with per_query as (
          select query,
            coalesce(sum(impressions) filter (where date between ${range.start}::date and ${range.end}::date), 0)::int as impressions,
            coalesce(sum(clicks) filter (where date between ${range.start}::date and ${range.end}::date), 0)::int as clicks,
            sum(position * impressions) filter (where date between ${range.start}::date and ${range.end}::date)
              / nullif(sum(impressions) filter (where date between ${range.start}::date and ${range.end}::date), 0) as position,
            coalesce(sum(impressions) filter (where date between ${comparison.start}::date and ${comparison.end}::date), 0)::int as previous_impressions,
            sum(position * impressions) filter (where date between ${comparison.start}::date and ${comparison.end}::date)
              / nullif(sum(impressions) filter (where date between ${comparison.start}::date and ${comparison.end}::date), 0) as previous_position
          from search_query_daily
          where site_id = ${siteId}
            and ((date between ${range.start}::date and ${range.end}::date) or (date between ${comparison.start}::date and ${comparison.end}::date))
          group by query
        ),
        moves as (
          select case when position <= 10 then 'gained' else 'lost' end as kind, *
          from per_query
          where (position <= 10 and (previous_position is null or previous_position > 10))
             or (previous_position <= 10 and (position is null or position > 10))
        ),
        ranked as (
          select *, row_number() over (
            partition by kind order by case when kind = 'gained' then impressions else previous_impressions end desc, query
          ) as n
          from moves
        )
        select kind, query, round(position::numeric, 1)::float8 as position, round(previous_position::numeric, 1)::float8 as previous_position,
          impressions, previous_impressions, clicks
        from ranked where n <= ${limit}
        order by kind, n`.execute(db);
      return rows;
    },

    /**
     * The tasks that completed within the period's (Pacific) days (their last completion), the latest first (`limit` of them), and how
     * many completed, how many of those were verified live and how many are rolled back since.
     */
    async completedTasks(siteId: string, range: DateRange, limit: number) {
      // The period's days are Search Console's (Pacific), as the keyword moves' and the analytics timeline's: a task done
      // on the evening before the period (already the first day in UTC) is not this period's work.
      const { from, to } = pacificBounds(range);
      const completions = db
        .selectFrom('task_events')
        .innerJoin('tasks', 'tasks.id', 'task_events.task_id')
        .select(['task_events.task_id', (eb) => eb.fn.max('task_events.at').as('completed_at')])
        .where('tasks.site_id', '=', siteId)
        .where('task_events.to_status', '=', 'completed')
        .where('task_events.at', '>=', from)
        .where('task_events.at', '<', to)
        .groupBy('task_events.task_id');
      const joined = db
        .selectFrom(completions.as('c'))
        .innerJoin('tasks as t', 't.id', 'c.task_id')
        .leftJoin('task_verifications as v', 'v.task_id', 't.id');
      const [items, counts] = await Promise.all([
        joined
          .select(['t.id', 't.title', 't.type', 't.target', 't.configuration', 't.status', 'v.status as verification', 'c.completed_at'])
          .orderBy('c.completed_at', 'desc')
          .orderBy('t.id')
          .limit(limit)
          .execute(),
        joined
          .select((eb) => [
            eb.fn.countAll<number>().as('completed'),
            sql<number>`count(*) filter (where v.status = 'verified')`.as('verified'),
            sql<number>`count(*) filter (where t.status = 'rolled_back')`.as('rolled_back'),
          ])
          .executeTakeFirstOrThrow(),
      ]);
      return {
        items: items.map((i) => ({ ...i, status: i.status as TaskStatus, completed_at: new Date(i.completed_at as Date | string) })),
        completed: Number(counts.completed), verified: Number(counts.verified), rolled_back: Number(counts.rolled_back),
      };
    },
  };
}

export type ReportsRepo = ReturnType<typeof createReportsRepo>;
