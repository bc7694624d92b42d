import { Type } from 'typebox';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';
import { PerformanceQuery } from './performance.schemas.ts';

/** The period and comparison of the performance report, for GA4's figures. */
export const EngagementQuery = Type.Pick(PerformanceQuery, ['site_id', 'period', 'start', 'end', 'compare'], { additionalProperties: false });
/** A period, for the timeline of changes. */
export const TimelineQuery = Type.Pick(PerformanceQuery, ['site_id', 'period', 'start', 'end'], { additionalProperties: false });

const Day = Type.String({ format: 'date' });
const Metrics = Type.Object({
  sessions: Type.Integer(),
  page_views: Type.Integer(),
  engagement_rate: Nullable(Type.Number({ description: "Engaged sessions over sessions, 0 to 1 (GA4's engagement rate: 1 - bounce rate); null without sessions" })),
  key_events: Type.Number({ description: "GA4's key events (conversions)" }),
});
const Changes = Type.Object({
  sessions: Nullable(Type.Number({ description: 'Percent change; null when the comparison period had none' })),
  page_views: Nullable(Type.Number()),
  engagement_rate: Nullable(Type.Number({ description: 'Difference in percentage points' })),
  key_events: Nullable(Type.Number()),
});

export const EngagementSchema = Type.Object({
  site_id: Uuid(),
  connected: Type.Boolean({ description: 'Whether the site has any GA4 data (false: connect Google Analytics in the site\'s settings)' }),
  period: Type.Object({ start: Day, end: Day, days: Type.Integer() }),
  comparison: Nullable(Type.Object({ start: Day, end: Day, mode: StringEnum(['previous', 'year'] as const), has_data: Type.Boolean({ description: "Whether GA4's data reaches back to the comparison's first day" }) })),
  totals: Type.Object({ current: Metrics, previous: Nullable(Metrics), change: Nullable(Changes) }),
  days: Type.Array(Type.Object({
    date: Day,
    final: Type.Boolean({ description: 'False for a day after the last one synced, or before the first: its zeros are unknown, not none' }),
    ...Metrics.properties,
    previous: Nullable(Type.Object({ date: Day, ...Metrics.properties })),
  })),
});

export const TimelineSchema = Type.Object({
  site_id: Uuid(),
  period: Type.Object({ start: Day, end: Day, days: Type.Integer() }),
  items: Type.Array(Type.Object({
    task_id: Uuid(),
    title: Type.String(),
    type: Type.String(),
    target: Type.String({ description: 'The page (or site) the task changed' }),
    event: StringEnum(['completed', 'verified', 'rolled_back'] as const, { description: 'Went live, was confirmed on the live site, or was undone' }),
    at: Timestamp(),
    date: Day,
  }), { description: 'Oldest first, each on its Search Console day (Pacific Time); at most 500' }),
});
