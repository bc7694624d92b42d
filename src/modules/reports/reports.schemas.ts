import { Type, type Static } from 'typebox';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';
import { PerformanceQuery, PerformanceSchema } from '../analytics/performance.schemas.ts';
import { TASK_PRIORITIES, TASK_STATUSES } from '../tasks/tasks.schemas.ts';

export const ReportParams = Type.Object({ site_id: Uuid({ description: 'Site identifier' }) });

const { period, start, end } = PerformanceQuery.properties;
/** The performance report's periods; compared with the days before or the same dates a year before (a report always compares). */
export const ReportQuery = Type.Object({
  period, start, end,
  compare: Type.Optional(StringEnum(['previous', 'year'] as const, { default: 'previous', description: 'The days just before the period, or the same dates a year before' })),
}, { additionalProperties: false });
export type ReportQueryInput = Static<typeof ReportQuery>;

const { totals } = PerformanceSchema.properties;
const Position = Nullable(Type.Number({ description: 'Average position, weighted by impressions; null without impressions' }));
const day = Type.String({ format: 'date' });

const Mover = Type.Object({
  key: Type.String({ description: 'The query, or the page address' }),
  clicks: Type.Integer(),
  previous_clicks: Type.Integer(),
  clicks_difference: Type.Integer({ description: 'Clicks this period minus clicks in the comparison period' }),
  impressions: Type.Integer(),
  position: Position,
  previous_position: Position,
});
const Movers = Type.Object({
  gained: Type.Array(Mover, { description: 'The 5 that gained the most clicks (only those that gained)' }),
  lost: Type.Array(Mover, { description: 'The 5 that lost the most clicks (only those that lost)' }),
});

const KeywordMove = Type.Object({
  query: Type.String(),
  position: Position,
  previous_position: Position,
  impressions: Type.Integer({ minimum: 0 }),
  previous_impressions: Type.Integer({ minimum: 0 }),
  clicks: Type.Integer({ minimum: 0 }),
});

const Impact = Type.Object({
  window_days: Type.Integer({ description: 'Days compared on each side of the completion (at most 28)' }),
  query: Nullable(Type.String({ description: 'The query the task moves, or null for the whole page' })),
  clicks_before: Type.Integer(),
  clicks_after: Type.Integer(),
  position_before: Position,
  position_after: Position,
  realised_clicks_28d: Type.Integer({ description: 'The change in clicks, brought to 28 days' }),
  expected_clicks_28d: Nullable(Type.Integer({ description: 'What the proposal expected (28 days), null without an estimate' })),
}, { description: "The page's search figures before and after the task completed; null until search data covers days after it" });

export const ReportSchema = Type.Object({
  site: Type.Object({ id: Uuid(), name: Type.String(), domain: Type.String() }),
  workspace: Type.Object({
    id: Uuid(),
    name: Type.String({ description: "The workspace's name: the agency's name at the top of the printed report (no logo can be uploaded yet)" }),
    personal: Type.Boolean({ description: "A user's personal workspace: the printed report then names no agency" }),
  }),
  generated_at: Timestamp(),
  period: Type.Object({ start: day, end: day, days: Type.Integer({ minimum: 1 }) }),
  comparison: Type.Object({
    start: day, end: day, mode: StringEnum(['previous', 'year'] as const),
    has_data: Type.Boolean({ description: 'Whether Search Console data reaches back to the comparison\'s first day (false: its figures are partial or none)' }),
  }),
  traffic: Type.Object({
    has_data: Type.Boolean({ description: 'Whether Search Console data covers any day of the period' }),
    ...totals.properties,
  }),
  top_movers: Type.Object({ queries: Movers, pages: Movers }),
  keywords: Type.Object({
    gained: Type.Array(KeywordMove, { description: 'Queries in the top 10 this period and not in the comparison period (or without a position there), most impressions first, at most 10' }),
    lost: Type.Array(KeywordMove, { description: 'Queries in the top 10 in the comparison period and not this period, most impressions (then) first, at most 10' }),
  }),
  health: Type.Object({
    score: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: 'The latest completed audit\'s health score' })),
    previous_score: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: 'The completed audit before it' })),
    change: Nullable(Type.Integer({ description: 'score - previous_score' })),
    audited_at: Nullable(Timestamp()),
    history: Type.Array(Type.Object({ audit_id: Uuid(), score: Nullable(Type.Integer()), finished_at: Nullable(Timestamp()) }), { description: 'The last 100 completed audits, oldest first' }),
  }),
  top_problems: Type.Object({
    audit_id: Nullable(Uuid({ description: 'The latest completed audit, null before one' })),
    items: Type.Array(Type.Object({
      check_id: Type.String(),
      severity: StringEnum(['critical', 'error', 'warning', 'notice'] as const),
      title: Type.String(),
      affected_count: Type.Integer({ minimum: 1, description: 'Pages (or links) affected' }),
    }), { description: 'The 5 most severe checks, then the most affected' }),
  }),
  work_done: Type.Object({
    completed: Type.Integer({ minimum: 0, description: 'Tasks completed in the period' }),
    verified: Type.Integer({ minimum: 0, description: 'Of them, those whose change was checked live' }),
    rolled_back: Type.Integer({ minimum: 0, description: 'Of them, those rolled back since' }),
    items: Type.Array(Type.Object({
      id: Uuid(),
      title: Type.String(),
      type: Type.String(),
      page: Nullable(Type.String({ description: 'The page the task changed, null for a site-wide task' })),
      completed_at: Timestamp(),
      status: StringEnum(TASK_STATUSES, { description: 'Its status now (rolled_back once undone)' }),
      verification: Nullable(Type.String({ description: 'pending, verified or failed; null before a check' })),
      impact: Nullable(Impact),
    }), { description: 'The 10 completed last' }),
  }),
  proposals: Type.Object({
    awaiting_approval: Type.Integer({ minimum: 0 }),
    top: Type.Array(Type.Object({
      id: Uuid(), title: Type.String(), priority: StringEnum(TASK_PRIORITIES),
      expected_clicks_28d: Nullable(Type.Integer({ description: 'Additional clicks expected in 28 days, null without an estimate' })),
    }), { description: 'The 5 of highest priority' }),
  }),
});
export type Report = Static<typeof ReportSchema>;
