import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ProblemError } from '../../../lib/problem.ts';
import { brandOf } from '../../search-data/intent.ts';
import { DAY_MS as DAY, isoDate, pacificToday } from '../../search-data/periods.ts';
import type { QueryPageDay } from '../../search-data/search-data.repo.ts';
import type { SearchDataService } from '../../search-data/search-data.service.ts';
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
  google: Pick<GoogleService, 'accessToken'>;
  client: GoogleClient | undefined;
  searchData: Pick<SearchDataService, 'upsertSearchDays' | 'stageQueryRows' | 'promoteStagedQueryRows' | 'discardStagedQueryRows' | 'replaceSegmentDays' | 'hasSegments' | 'refreshKeywords' | 'upsertAnalyticsDays'>;
  sites: Pick<SitesService, 'idsAddedBy' | 'forSync' | 'setSearchSync' | 'idsWithActiveGoogle'>;
  /** Sends "search data synced" after a Search Console sync stored new data (the search planner proposes from it). */
  queue: JobSender;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Rows a Search Console request asks for at a time (its maximum; tests page with fewer). */
  pageSize?: number;
}) {
  const pageSize = deps.pageSize ?? ROW_LIMIT;

  /** A paged answer, a page at a time: a page with fewer rows than asked for is the last. */
  async function* pagesOf<T>(fetchPage: (startRow: number) => Promise<T[]>, size: number): AsyncGenerator<T[]> {
    for (let start = 0; ; start += size) {
      const rows = await fetchPage(start);
      yield rows;
      if (rows.length < size) return;
    }
  }
  async function pages<T>(fetchPage: (startRow: number) => Promise<T[]>, size: number): Promise<T[]> {
    const all: T[] = [];
    for await (const rows of pagesOf(fetchPage, size)) all.push(...rows);
    return all;
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
    const site = await deps.sites.forSync(siteId);
    if (!site || !deps.client) return;
    const fail = async (message: string) => {
      await deps.sites.setSearchSync(siteId, { search_sync_error: message });
      deps.log.warn({ siteId, message }, 'search data sync did not run');
    };
    // The member who added the site (whose Google connection reads it) has left its workspace, or their account is gone.
    if (site.owner_id === null) return fail('The member who added this site has left its workspace: its Search Console data needs a member\'s Google connection');
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
        if (!site.gsc_property) await deps.sites.setSearchSync(siteId, { gsc_property: property });
        // Days from Google's first_incomplete_date on are still settling: they are not stored
        // (the next syncs fetch them again), so stored data, and the periods built on it, end
        // at the last complete day.
        let firstIncomplete = '9999-12-31';
        const query = (dimensions: string[], from: string) => (startRow: number) =>
          deps.client!.searchAnalytics(token, property, { startDate: from, endDate, dimensions, rowLimit: pageSize, startRow }).then((r) => {
            const incomplete = r.metadata?.first_incomplete_date;
            if (incomplete && incomplete < firstIncomplete) firstIncomplete = incomplete;
            return r.rows ?? [];
          });
        const complete = <T extends { keys: string[] }>(rows: T[]) => rows.filter((r) => r.keys[0]! < firstIncomplete);
        const totals = complete(await pages(query(['date'], startDate), pageSize));
        // Query x page rows, millions for a large property over 90 days: staged a page at a time (one page in memory), then
        // swapped in for the synced days in one transaction; a sync that fails leaves the stored days as they were.
        const syncId = randomUUID();
        try {
          for await (const page of pagesOf(query(['date', 'query', 'page'], queryStart), pageSize)) {
            await deps.searchData.stageQueryRows(syncId, siteId, complete(page).map((r): QueryPageDay => (
              { date: r.keys[0]!, query: r.keys[1]!, page: r.keys[2]!, clicks: r.clicks, impressions: r.impressions, position: r.position })));
          }
          await deps.searchData.upsertSearchDays(siteId, totals.map((r) => ({ date: r.keys[0]!, clicks: r.clicks, impressions: r.impressions, ctr: r.ctr, position: r.position })));
          const queryDays = Array.from({ length: Math.min(days, QUERY_DAYS) }, (_, i) => isoDate(end - i * DAY));
          await deps.searchData.promoteStagedQueryRows(syncId, siteId, queryDays);
        } catch (error) {
          await deps.searchData.discardStagedQueryRows(syncId).catch((e: unknown) => deps.log.warn({ err: e, siteId }, 'staged query rows not discarded: housekeeping deletes them'));
          throw error;
        }
        await deps.searchData.refreshKeywords(siteId, brandOf(site.domain));
        // Countries and devices, each on its own (Search Console reports a dimension's rows apart): every day synced, and
        // the 16 months once for a site synced before they were fetched.
        const segmentDays = site.search_backfilled && !(await deps.searchData.hasSegments(siteId)) ? BACKFILL_DAYS : days;
        const syncedDays = Array.from({ length: segmentDays }, (_, i) => isoDate(end - i * DAY));
        for (const dimension of ['country', 'device'] as const) {
          const segments = complete(await pages(query(['date', dimension], syncedDays.at(-1)!), pageSize));
          await deps.searchData.replaceSegmentDays(siteId, dimension, syncedDays,
            segments.map((r) => ({ date: r.keys[0]!, key: r.keys[1]!.toLowerCase(), clicks: r.clicks, impressions: r.impressions, position: r.position })));
        }
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
      await deps.sites.setSearchSync(siteId, {
        search_backfilled: property !== undefined || site.search_backfilled, synced: true,
        search_sync_error: property ? ga4Error ?? null : `No Search Console property of the connected account matches ${site.domain}; link one with PUT /api/v1/sites/{id} (gsc_property).`,
      });
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

  return {
    syncSite,
    /** The daily run: a sync job per site to sync (each retried on its own). */
    async queueAll() {
      for (const siteId of await deps.sites.idsWithActiveGoogle()) await deps.queue.send(SYNC_JOB, { siteId });
    },
    /**
     * After connecting Google, each active site the user added syncs (its property is picked when none is linked): their connection
     * feeds those; another member's site in a shared workspace goes on with its own member's.
     */
    async queueUserSites(userId: string) {
      for (const siteId of await deps.sites.idsAddedBy(userId)) await deps.queue.send(SYNC_JOB, { siteId });
    },
  };
}

export type SearchSync = ReturnType<typeof createSearchSync>;
