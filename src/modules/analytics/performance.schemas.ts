import { Type } from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../lib/schema.ts';
import { SORTS } from './performance.repo.ts';
import { COMPARISONS, REPORT_PERIODS } from './report-periods.ts';

const filterText = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }));

export const PerformanceQuery = Type.Object({
  site_id: Uuid(),
  period: Type.Optional(StringEnum(REPORT_PERIODS, { description: 'A named period ending at the last day with data (default 28d); or give start and end instead' })),
  start: Type.Optional(Type.String({ description: 'Custom period: its first day (YYYY-MM-DD, with end)' })),
  end: Type.Optional(Type.String({ description: 'Custom period: its last day (YYYY-MM-DD, with start; at most 16 months, not after yesterday)' })),
  compare: Type.Optional(StringEnum(COMPARISONS, { default: 'previous', description: 'The days just before, the same dates a year before, or nothing' })),
  dimension: Type.Optional(StringEnum(['query', 'page'] as const, { default: 'query', description: 'What the table lists' })),
  sort: Type.Optional(StringEnum(SORTS, { default: 'clicks', description: 'A metric, or its change against the comparison period' })),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { description: 'Default: ascending for position (best first), descending otherwise' })),
  search: filterText("Only the table's rows whose query or page contains this (case-insensitive); the totals and days are not narrowed"),
  query_contains: filterText('Only queries containing this (case-insensitive): totals, days and table'),
  query_not_contains: filterText('Only queries not containing this'),
  query_equals: filterText('Only this query (case-insensitive)'),
  page_contains: filterText('Only pages whose address contains this (case-insensitive)'),
  page_not_contains: filterText('Only pages whose address does not contain this'),
  page_equals: filterText('Only this page (its exact address)'),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1, description: 'Page of the table, 1 to 10,000' })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'Rows of the table per page, 1 to 500' })),
}, { additionalProperties: false });

/** The report's table as a file: the same period, comparison, filters, search and order, every row (no paging). */
export const PerformanceExportQuery = Type.Omit(PerformanceQuery, ['page', 'page_size'], { additionalProperties: false });

const Metrics = Type.Object({
  clicks: Type.Integer(),
  impressions: Type.Integer(),
  ctr: Nullable(Type.Number({ description: 'Clicks over impressions, 0 to 1; null without impressions' })),
  position: Nullable(Type.Number({ description: 'Average position, weighted by impressions; null without impressions' })),
});
const Changes = Type.Object({
  clicks: Nullable(Type.Number({ description: 'Percent change; null when the comparison period had none' })),
  impressions: Nullable(Type.Number()),
  ctr: Nullable(Type.Number({ description: 'Difference in percentage points' })),
  position: Nullable(Type.Number({ description: 'Difference in places (negative: better)' })),
});
const Range = Type.Object({ start: Type.String({ format: 'date' }), end: Type.String({ format: 'date' }) });

export const PerformanceSchema = Type.Object({
  site_id: Uuid(),
  period: Type.Object({ ...Range.properties, days: Type.Integer() }),
  comparison: Nullable(Type.Object({
    ...Range.properties,
    mode: StringEnum(['previous', 'year'] as const),
    has_data: Type.Boolean({ description: "Whether the data the figures come from (the totals', or the query rows' when filtered) reaches back to the comparison's first day (false: its figures are partial or none)" }),
  })),
  rows_from: Nullable(Type.String({ format: 'date', description: "The first day the site has query and page rows for (the sync keeps 90 days of them at first, then every day it syncs): the table and filtered figures count from then" })),
  filtered: Type.Boolean({ description: "Totals and days from the filtered query rows (true) or the property's own totals (false: they count anonymised queries too)" }),
  totals: Type.Object({ current: Metrics, previous: Nullable(Metrics), change: Nullable(Changes) }),
  days: Type.Array(Type.Object({
    date: Type.String({ format: 'date', description: "A Search Console day (Pacific Time)" }),
    final: Type.Boolean({ description: "False for a day without settled figures: after the last day synced, or (filtered) before rows_from; its zeros are unknown, not none" }),
    ...Metrics.properties,
    previous: Nullable(Type.Object({ date: Type.String({ format: 'date' }), ...Metrics.properties })),
  })),
  rows: Type.Object({
    dimension: StringEnum(['query', 'page'] as const),
    items: Type.Array(Type.Object({ key: Type.String(), ...Metrics.properties, previous: Nullable(Metrics), change: Nullable(Changes) })),
    total: Type.Integer({ minimum: 0 }),
    page: Type.Integer({ minimum: 1 }),
    page_size: Type.Integer({ minimum: 1 }),
  }),
});
