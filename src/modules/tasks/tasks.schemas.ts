import { Type } from 'typebox';
import { pageQueryProperties } from '../../lib/pagination.ts';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';

export const TASK_STATUSES = [
  'awaiting_approval', 'queued', 'in_progress', 'completed', 'failed', 'cancelled', 'rolled_back',
] as const;
export const TASK_CATEGORIES = ['strategy', 'research', 'content', 'technical', 'seo'] as const;
export const TASK_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;

export const TaskSchema = Type.Object({
  id: Uuid(),
  title: Type.String(),
  description: Type.String(),
  type: Type.String({ description: 'snake_case task type' }),
  status: StringEnum(TASK_STATUSES),
  priority: StringEnum(TASK_PRIORITIES),
  site_id: Uuid(),
  created_at: Timestamp(),
});

export const TaskDetailSchema = Type.Object({
  ...TaskSchema.properties,
  category: StringEnum(TASK_CATEGORIES),
  target: Type.String({ description: 'What the task acts on: a URL, or the site' }),
  configuration: Type.Unknown({ description: 'What will be changed, with exact before -> after values' }),
  evidence: Type.Unknown({ description: 'The findings and data that justify the task' }),
  deliverables: Type.Unknown({ description: 'What execution produced' }),
  error: Type.Unknown({ description: 'Error details when the task failed' }),
  execution_history: Type.Array(
    Type.Object({ from: Nullable(StringEnum(TASK_STATUSES)), to: StringEnum(TASK_STATUSES), actor: Type.String(), at: Timestamp(), detail: Type.Unknown() }),
  ),
  verification: Type.Unknown({ description: 'Latest verification status, null before execution' }),
  rollback: Type.Unknown({ description: 'The rollback, if any' }),
  updated_at: Timestamp(),
});

export const TaskParams = Type.Object({ task_id: Uuid({ description: 'Task identifier' }) });

export const ListTasksQuery = Type.Object(
  {
    site_id: Type.Optional(Uuid({ description: 'Only this site; all of your sites when absent' })),
    status: Type.Optional(StringEnum(TASK_STATUSES)),
    category: Type.Optional(StringEnum(TASK_CATEGORIES)),
    ...pageQueryProperties(20, 100),
  },
  { additionalProperties: false },
);

export const AwaitingApprovalQuery = Type.Object(
  { site_id: Type.Optional(Uuid()), ...pageQueryProperties(20, 100) },
  { additionalProperties: false },
);

/** The result of one action, whose status is the one status that action leads to. */
export const TaskActionResultOf = (status: (typeof TASK_STATUSES)[number]) =>
  Type.Object({ id: Uuid(), status: Type.Unsafe<(typeof TASK_STATUSES)[number]>({ type: 'string', enum: [status] }), message: Type.String() });

const Metrics = Type.Object({ clicks: Type.Integer(), impressions: Type.Integer(), position: Nullable(Type.Number()) });

export const VerificationStatusSchema = Type.Object({
  task_id: Uuid(),
  status: StringEnum(['pending', 'verified', 'failed', 'not_applicable'] as const),
  checks: Type.Array(Type.Object({}, { additionalProperties: true })),
  checked_at: Nullable(Timestamp()),
  impact: Nullable(Type.Object({
    url: Type.String(),
    window_days: Type.Integer({ description: 'Equal windows before and after the task completed (up to 28 days, as many as have passed)' }),
    before: Metrics,
    after: Metrics,
  }, { description: "Search Console metrics of the task's page before and after, once search data covers the time after; null otherwise" })),
});

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
  { site_id: Type.Optional(Uuid()), ...pageQueryProperties(20, 100) },
  { additionalProperties: false },
);
