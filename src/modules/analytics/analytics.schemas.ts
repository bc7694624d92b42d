import { Type } from 'typebox';
import { StringEnum, Uuid } from '../../lib/schema.ts';

export const PERIODS = ['7d', '30d', '90d', '12m'] as const;
export const METRICS = ['organic_traffic', 'keyword_positions', 'conversions', 'page_views', 'bounce_rate'] as const;

const period = StringEnum(PERIODS, { default: '30d' });

export const DashboardQuery = Type.Object({ site_id: Uuid(), period: Type.Optional(period) }, { additionalProperties: false });
export const TrendsQuery = Type.Object(
  { site_id: Uuid(), metric: StringEnum(METRICS), period: Type.Optional(period) },
  { additionalProperties: false },
);

export const DashboardSchema = Type.Object({
  organic_traffic: Type.Object({
    current: Type.Integer(),
    previous: Type.Integer(),
    change_percent: Type.Union([Type.Number(), Type.Null()], { description: 'Null when the previous period had no clicks or is not fully covered by data' }),
    start: Type.String({ format: 'date', description: 'First day of the period (Pacific Time, as Search Console)' }),
    end: Type.String({ format: 'date', description: 'Last day of the period: the last day with complete data' }),
    previous_start: Type.String({ format: 'date' }),
    previous_end: Type.String({ format: 'date' }),
  }),
  keyword_rankings: Type.Object({ top_3: Type.Integer(), top_10: Type.Integer(), total_tracked: Type.Integer() }),
  tasks_completed: Type.Object({ current_period: Type.Integer(), total: Type.Integer() }),
  health_score: Type.Union([Type.Integer(), Type.Null()]),
  period: StringEnum(PERIODS),
});

export const TrendSchema = Type.Object({
  metric: StringEnum(METRICS),
  period: StringEnum(PERIODS),
  start: Type.String({ format: 'date', description: 'First day of the period' }),
  end: Type.String({ format: 'date', description: "Last day of the period: the last day the metric's source has data for" }),
  data_points: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), value: Type.Number() })),
});
