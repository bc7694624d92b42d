import { Type, type Static } from 'typebox';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';
import { SiteSchema } from '../sites/sites.schemas.ts';
import { TASK_STATUSES } from '../tasks/tasks.schemas.ts';

const { id, health_score: healthScore } = SiteSchema.properties;

const count = Type.Integer({ minimum: 0 });

export const SiteProgressSchema = Type.Object({
  site_id: id,
  health_score: healthScore,
  initial_health_score: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: 'At the first completed audit' })),
  audit: Nullable(
    Type.Object({
      id: Uuid(),
      status: StringEnum(['queued', 'running', 'completed', 'failed'] as const),
      pages_crawled: count,
      pages_discovered: count,
      started_at: Nullable(Timestamp()),
      finished_at: Nullable(Timestamp()),
    }),
  ),
  score_history: Type.Array(
    Type.Object({ audit_id: Uuid(), score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })), finished_at: Nullable(Timestamp()) }),
    { description: 'Scores of the last 100 completed audits, oldest first' },
  ),
  tasks: Type.Object({ ...Object.fromEntries(TASK_STATUSES.map((s) => [s, count])), total: count }),
  last_analytics_sync_at: Nullable(Timestamp()),
  analytics_sync_error: Nullable(Type.String({ description: 'Why the last search-data sync did not complete (quota, revoked grant…), null when it did' })),
});
export type SiteProgress = Static<typeof SiteProgressSchema>;
