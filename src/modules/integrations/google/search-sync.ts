import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { ProblemError } from '../../../lib/problem.ts';
import { brandOf } from '../../search-data/intent.ts';
import { DAY_MS as DAY, isoDate, pacificToday } from '../../search-data/periods.ts';
import type { QueryPageDay, SearchDataRepo } from '../../search-data/search-data.repo.ts';
import type { SitesService } from '../../sites/sites.service.ts';
import type { JobSender } from '../../../jobs/queue.ts';
import { GA4_METRICS, GoogleApiError, isUnverifiedPermission, type GoogleClient } from './google-client.ts';
import type { GoogleService } from './google.service.ts';

export const SYNC_JOB = 'search.sync' as const;

/** Search Console's maximum page size: a page with fewer rows is the last. */
export const ROW_LIMIT = 25_000;
/** First sync: Search Console keeps 16 months. Later syncs re-fetch the last 4 days, which settle after 2-3. */
const BACKFILL_DAYS = 486;
const REFRESH_DAYS = 4;
/** Query×page rows are fetched for at most this many days (keywords use 28; the rest is for trends of queries later). */
const QUERY_DAYS = 90;
const GA4_PAGE = 10_000;

/**
 * Pulls a site's Search Console and GA4 data into the store. Every write is an upsert of
 * whole days, so a re-run never doubles anything; a quota error leaves the stored data as
 * it was and is shown on the site's progress.
 */
export function createSearchSync(deps: {
  db: Kysely<DB>;
  google: Pick<GoogleService, 'accessToken'>;
  client: GoogleClient | undefined;
  searchData: SearchDataRepo;
  sites: Pick<SitesService, 'listSites'>;
  /** Sends "search data synced" after a Search Console sync stored new data (the search planner proposes from it). */
  queue: JobSender;
  log: FastifyBaseLogger;
  now?: () => Date;
}) {
  const { db } = deps;

  async function pages<T>(fetchPage: (startRow: number) => Promise<T[]>, pageSize: number): Promise<T[]> {
    const all: T[] = [];
    for (let start = 0; ; start += pageSize) {
      const rows = await fetchPage(start);
      all.push(...rows);
      if (rows.length < pageSize) return all;
    }
  }

  /** The site's property: the linked one, or the matching sc-domain: or URL-prefix property of the account. */
  async function propertyFor(token: string, site: { domain: string; gsc_property: string | null }) {
    if (site.gsc_property) return site.gsc_property;
    const list = (await deps.client!.sites(token)).siteEntry ?? [];
    const host = site.domain.replace(/^www\./, '');
    const wanted = [`sc-domain:${host}`, `https://${host}/`, `https://www.${host}/`, `http://${host}/`, `http://www.${host}/`];
    return wanted.find((w) => list.some((p) => p.siteUrl === w && !isUnverifiedPermission(p.permissionLevel)));
  }

  async function syncSite(siteId: string) {
    const site = await db.selectFrom('sites')
      .select(['id', 'owner_id', 'domain', 'gsc_property', 'ga4_property', 'search_backfilled'])
      .where('id', '=', siteId).executeTakeFirst();
    if (!site || !deps.client) return;
    const fail = async (message: string) => {
      await db.updateTable('sites').set({ search_sync_error: message }).where('id', '=', siteId).execute();
      deps.log.warn({ siteId, message }, 'search data sync did not run');
    };
    let token: string;
    try {
      token = await deps.google.accessToken(site.owner_id);
    } catch (error) {
      if (error instanceof ProblemError) return fail(error.message); // not connected, revoked, not configured
      throw error;
    }

    const now = deps.now?.() ?? new Date();
    const end = pacificToday(now) - DAY; // Search Console's days are Pacific Time
    const days = site.search_backfilled ? REFRESH_DAYS : BACKFILL_DAYS;
    const startDate = isoDate(end - (days - 1) * DAY);
    const queryStart = isoDate(end - (Math.min(days, QUERY_DAYS) - 1) * DAY);
    const endDate = isoDate(end);
    try {
      const property = await propertyFor(token, site);
      if (property) {
        if (!site.gsc_property) await db.updateTable('sites').set({ gsc_property: property }).where('id', '=', siteId).execute();
        // Days from Google's first_incomplete_date on are still settling: they are not stored
        // (the next syncs fetch them again), so stored data, and the periods built on it, end
        // at the last complete day.
        let firstIncomplete = '9999-12-31';
        const query = (dimensions: string[], from: string) => (startRow: number) =>
          deps.client!.searchAnalytics(token, property, { startDate: from, endDate, dimensions, rowLimit: ROW_LIMIT, startRow }).then((r) => {
            const incomplete = r.metadata?.first_incomplete_date;
            if (incomplete && incomplete < firstIncomplete) firstIncomplete = incomplete;
            return r.rows ?? [];
          });
        const complete = <T extends { keys: string[] }>(rows: T[]) => rows.filter((r) => r.keys[0]! < firstIncomplete);
        const totals = complete(await pages(query(['date'], startDate), ROW_LIMIT));
        const detail = complete(await pages(query(['date', 'query', 'page'], queryStart), ROW_LIMIT));
        await deps.searchData.upsertSearchDays(siteId, totals.map((r) => ({ date: r.keys[0]!, clicks: r.clicks, impressions: r.impressions, ctr: r.ctr, position: r.position })));
        const rows: QueryPageDay[] = detail.map((r) => ({ date: r.keys[0]!, query: r.keys[1]!, page: r.keys[2]!, clicks: r.clicks, impressions: r.impressions, position: r.position }));
        const queryDays = Array.from({ length: Math.min(days, QUERY_DAYS) }, (_, i) => isoDate(end - i * DAY));
        await deps.searchData.replaceQueryDays(siteId, queryDays, rows);
        await deps.searchData.refreshKeywords(siteId, brandOf(site.domain));
      }
      // A GA4 failure (no access to the property, a refused request) is reported but does not
      // undo the Search Console sync: otherwise each daily run would repeat the 16-month backfill.
      let ga4Error: string | undefined;
      if (site.ga4_property) try {
        const rows = await pages((offset) => deps.client!.runReport(token, site.ga4_property!, {
          dateRanges: [{ startDate, endDate }], dimensions: [{ name: 'date' }], metrics: GA4_METRICS.map((name) => ({ name })),
          limit: GA4_PAGE, offset, keepEmptyRows: false,
        }).then((r) => r.rows ?? []), GA4_PAGE);
        await deps.searchData.upsertAnalyticsDays(siteId, rows.map((r) => {
          const [d] = r.dimensionValues;
          const [sessions, views, bounce, conversions] = r.metricValues.map((v) => Number(v.value));
          const date = d!.value;
          return { date: `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`, sessions: sessions!, page_views: views!, bounce_rate: bounce!, conversions: conversions! };
        }));
      } catch (error) {
        if (!(error instanceof GoogleApiError) || error.quota) throw error;
        ga4Error = `Google Analytics (${site.ga4_property}): ${error.message}`;
      }
      await db.updateTable('sites')
        .set({ search_backfilled: property !== undefined || site.search_backfilled, search_synced_at: sql`now()`, search_sync_error: property ? ga4Error ?? null : `No Search Console property of the connected account matches ${site.domain}; link one with PUT /api/v1/sites/{id} (gsc_property).` })
        .where('id', '=', siteId).execute();
      if (property) await deps.queue.send('agent.plan-from-search', { siteId });
    } catch (error) {
      if (error instanceof GoogleApiError && (error.quota || error.status === 403)) {
        // Data already stored stays as it was; the next daily run tries again.
        return fail(error.quota ? 'Google quota exceeded: the previous data is kept; the next sync tries again.' : `Google refused access: ${error.message}`);
      }
      if (error instanceof GoogleApiError) await fail(error.message);
      throw error;
    }
  }

  /** Every active site whose owner has connected Google. */
  async function sitesToSync() {
    const rows = await db.selectFrom('sites').innerJoin('google_connections', 'google_connections.user_id', 'sites.owner_id')
      .select('sites.id').where('sites.is_active', '=', true).where('google_connections.status', '=', 'active').execute();
    return rows.map((r) => r.id);
  }

  return {
    syncSite,
    /** The daily run: a sync job per site to sync (each retried on its own). */
    async queueAll() {
      for (const siteId of await sitesToSync()) await deps.queue.send(SYNC_JOB, { siteId });
    },
    /** After connecting Google, each of the user's active sites syncs (its property is picked when none is linked). */
    async queueUserSites(userId: string) {
      for (const site of (await deps.sites.listSites(userId, { isActive: true })).items) await deps.queue.send(SYNC_JOB, { siteId: site.id });
    },
  };
}

export type SearchSync = ReturnType<typeof createSearchSync>;
