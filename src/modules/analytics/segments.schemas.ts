import { Type } from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../lib/schema.ts';
import { PerformanceQuery, PerformanceSchema } from './performance.schemas.ts';

export const SEGMENT_DIMENSIONS = ['country', 'device'] as const;

export const SegmentsQuery = Type.Object({
  ...Type.Pick(PerformanceQuery, ['site_id', 'period', 'start', 'end', 'compare', 'sort', 'order', 'page', 'page_size']).properties,
  dimension: StringEnum(SEGMENT_DIMENSIONS, { description: "Search Console's countries (ISO 3166-1 alpha-3, lower case: usa, prt) or devices (desktop, mobile, tablet)" }),
  key: Type.Optional(Type.String({ minLength: 1, maxLength: 20, pattern: '^[a-z]+$', description: 'One country or device: its totals and days are given too, for the charts' })),
}, { additionalProperties: false });

const report = PerformanceSchema.properties;
export const SegmentsSchema = Type.Object({
  site_id: Uuid(),
  dimension: StringEnum(SEGMENT_DIMENSIONS),
  period: report.period,
  comparison: report.comparison,
  rows_from: Nullable(Type.String({ format: 'date', description: "The first day the site has this dimension's rows for (synced with the totals: 16 months)" })),
  key: Nullable(Type.String()),
  totals: Nullable(report.totals),
  days: Nullable(report.days),
  rows: Type.Object({
    items: report.rows.properties.items,
    total: Type.Integer({ minimum: 0 }),
    page: Type.Integer({ minimum: 1 }),
    page_size: Type.Integer({ minimum: 1 }),
  }),
});
