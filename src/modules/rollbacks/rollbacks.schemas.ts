import { Type } from 'typebox';
import { pageQueryProperties } from '../../lib/pagination.ts';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';

export const RollbackQuery = Type.Object(
  { force: Type.Optional(Type.Boolean({ description: 'Restore even fields edited on the site after the task ran (default false: 409 naming them)' })) },
  { additionalProperties: false },
);

const RestoredChange = Type.Object({
  url: Type.String(), resource: Type.Object({ kind: Type.String(), id: Type.Integer() }),
  field: Type.String(), restored: Type.String(), replaced: Type.String(),
});

/** One rollback: the task, what was put back, by whom, when, and how it ended. */
export const RollbackSchema = Type.Object({
  id: Uuid(),
  task_id: Uuid(),
  site_id: Uuid(),
  task_type: Type.String(),
  task_title: Type.String(),
  actor: Type.String(),
  status: StringEnum(['running', 'restored', 'failed'] as const),
  changes: Type.Array(RestoredChange),
  checks: Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'Live-page checks after the restore' }),
  error: Type.Unknown({ description: 'Why it failed, null otherwise' }),
  started_at: Timestamp(),
  finished_at: Nullable(Timestamp()),
});

export const RollbackHistoryQuery = Type.Object(
  { site_id: Type.Optional(Uuid()), workspace_id: Type.Optional(Uuid({ description: "Only this workspace's sites (one the caller is a member of)" })), ...pageQueryProperties(20, 100) },
  { additionalProperties: false },
);
