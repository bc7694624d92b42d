import type { Static } from 'typebox';
import { changePercent } from '../search-data/periods.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { AnalyticsRepo } from './analytics.repo.ts';
import type { EngagementDay, EngagementRepo } from './engagement.repo.ts';
import type { EngagementQuery, TimelineQuery } from './engagement.schemas.ts';
import { datesOf, isFinal, reportRange } from './report-periods.ts';
import { pacificBounds, pacificDateOf } from './pacific-days.ts';

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** A period's sessions, page views, engagement rate (engaged sessions over sessions) and key events. */
function metricsOf(days: readonly EngagementDay[]) {
  const sessions = days.reduce((n, d) => n + d.sessions, 0);
  // Engaged sessions: each day's sessions times its engagement rate (1 - bounce rate, as GA4 defines them).
  const engaged = days.reduce((n, d) => n + d.sessions * (1 - d.bounce_rate), 0);
  return {
    sessions,
    page_views: days.reduce((n, d) => n + d.page_views, 0),
    engagement_rate: sessions === 0 ? null : round(engaged / sessions, 4),
    key_events: round(days.reduce((n, d) => n + d.conversions, 0), 2),
  };
}
type Metrics = ReturnType<typeof metricsOf>;

const changeOf = (now: Metrics, before: Metrics) => ({
  sessions: changePercent(now.sessions, before.sessions),
  page_views: changePercent(now.page_views, before.page_views),
  engagement_rate: now.engagement_rate === null || before.engagement_rate === null ? null : round((now.engagement_rate - before.engagement_rate) * 100, 2),
  key_events: changePercent(now.key_events, before.key_events),
});

/**
 * GA4's side of the performance report (sessions, page views, engagement, key events, with the
 * same periods and comparisons as Search Console's side), and the timeline of changes the
 * site's tasks made, for the charts' markers.
 */
export function createEngagementService(deps: {
  repo: EngagementRepo; analytics: Pick<AnalyticsRepo, 'coverage'>; sites: Pick<SitesService, 'getSite'>; now?: () => Date;
}) {
  const now = () => deps.now?.() ?? new Date();
  return {
    async report(userId: string, query: Static<typeof EngagementQuery>) {
      const site = await deps.sites.getSite(userId, query.site_id);
      const covered = await deps.analytics.coverage('analytics_daily', site.id);
      const range = reportRange(query, covered.last ?? undefined, now());
      const comparison = range.comparison;
      const [current, previous] = await Promise.all([deps.repo.days(site.id, range), comparison ? deps.repo.days(site.id, comparison) : Promise.resolve(undefined)]);
      const byDate = new Map(current.map((d) => [d.date, d]));
      const before = new Map((previous ?? []).map((d) => [d.date, d]));
      const previousDates = comparison ? datesOf(comparison) : [];
      const totalNow = metricsOf(current);
      const totalBefore = previous ? metricsOf(previous) : null;
      const known = (date: string) => isFinal(date, covered.last) && covered.first !== null && date >= covered.first;
      const dayMetrics = (d: EngagementDay | undefined) => metricsOf(d ? [d] : []);
      return {
        site_id: site.id,
        connected: covered.last !== null,
        period: { start: range.start, end: range.end, days: range.days },
        comparison: comparison ? { ...comparison, has_data: covered.first !== null && covered.first <= comparison.start } : null,
        totals: { current: totalNow, previous: totalBefore, change: totalBefore ? changeOf(totalNow, totalBefore) : null },
        days: datesOf(range).map((date, i) => {
          const then = previousDates[i];
          return {
            date, final: known(date), ...dayMetrics(byDate.get(date)),
            previous: then === undefined || !previous ? null : { date: then, ...dayMetrics(before.get(then)) },
          };
        }),
      };
    },

    /** The changes the site's tasks made in a period (completed, verified, rolled back), each on its Search Console day. */
    async timeline(userId: string, query: Static<typeof TimelineQuery>) {
      const site = await deps.sites.getSite(userId, query.site_id);
      const range = reportRange({ ...query, compare: 'none' }, undefined, now());
      // A day of the charts is a Pacific day: the period's instants are its Pacific days' (the client report counts the
      // tasks it completed by the same days).
      const { from, to } = pacificBounds(range);
      const items = (await deps.repo.changes(site.id, from, to)).map((c) => ({ ...c, date: pacificDateOf(c.at) }));
      return { site_id: site.id, period: { start: range.start, end: range.end, days: range.days }, items };
    },
  };
}

export type EngagementService = ReturnType<typeof createEngagementService>;
