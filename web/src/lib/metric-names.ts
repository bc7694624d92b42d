// What the Performance and Analytics pages share, so that they cannot disagree: the names of the metrics and the
// period a report opens on.

/**
 * The metrics' names, one for each, as Search Console and GA4 call them: the Performance page and the Analytics page
 * both say these (a page's clicks are "Clicks" on both, never "Organic traffic" on one of them).
 */
export const METRIC_NAMES = {
  clicks: 'Clicks', impressions: 'Impressions', ctr: 'Average CTR', position: 'Average position',
  sessions: 'Sessions', page_views: 'Page views', engagement_rate: 'Engagement rate', key_events: 'Key events',
} as const;
/** The period a report opens on: Search Console's default, the last 28 days (the Analytics page opens on it too). */
export const DEFAULT_PERIOD = '28d';
