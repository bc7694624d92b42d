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
  organic_traffic: Type.Object({ current: Type.Integer(), previous: Type.Integer(), change_percent: Type.Union([Type.Number(), Type.Null()]) }),
  keyword_rankings: Type.Object({ top_3: Type.Integer(), top_10: Type.Integer(), total_tracked: Type.Integer() }),
  tasks_completed: Type.Object({ current_period: Type.Integer(), total: Type.Integer() }),
  health_score: Type.Union([Type.Integer(), Type.Null()]),
  period: Type.String(),
});

export const TrendSchema = Type.Object({
  metric: Type.String(),
  period: Type.String(),
  data_points: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), value: Type.Number() })),
});
