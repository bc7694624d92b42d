import { Type } from 'typebox';
import { pageQueryProperties } from '../../lib/pagination.ts';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';
import { configurationSchemaOf, TASK_TYPE_LIST } from '../task-types/index.ts';

export const TASK_STATUSES = [
  'awaiting_approval', 'queued', 'in_progress', 'completed', 'failed', 'cancelled', 'rolled_back',
] as const;
export const TASK_CATEGORIES = ['strategy', 'research', 'content', 'technical', 'seo'] as const;
export const TASK_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;

export const ExpectedClicksSchema = Type.Object({
  clicks: Type.Integer({ minimum: 0, description: 'Additional clicks from search in 28 days, the central estimate' }),
  low: Type.Integer({ minimum: 0 }),
  high: Type.Integer({ minimum: 0 }),
  basis: StringEnum(['site_curve', 'industry_curve', 'page_clicks'] as const, {
    description: "site_curve: the site's own CTR by position, fitted on its Search Console rows; industry_curve: the published curve (Sistrix 2020), for a site with too little data; page_clicks: a share of the affected pages' clicks",
  }),
  method: Type.String({ description: 'The estimate in words, with its inputs' }),
}, { description: 'What the task is expected to bring (beyond the contract; method in the README, "Expected clicks"); null without search data' });

export const TaskSchema = Type.Object({
  id: Uuid(),
  title: Type.String(),
  description: Type.String(),
  type: Type.String({ description: 'snake_case task type' }),
  status: StringEnum(TASK_STATUSES),
  priority: StringEnum(TASK_PRIORITIES),
  site_id: Uuid(),
  created_at: Timestamp(),
  expected_clicks: Nullable(ExpectedClicksSchema),
});

const detailFields = {
  ...TaskSchema.properties,
  category: StringEnum(TASK_CATEGORIES),
  target: Type.String({ description: 'What the task acts on: a URL, or the site' }),
  evidence: Type.Unknown({ description: 'The findings and data that justify the task' }),
  deliverables: Type.Unknown({ description: 'What execution produced' }),
  error: Type.Unknown({ description: 'Error details when the task failed' }),
  execution_history: Type.Array(
    Type.Object({ from: Nullable(StringEnum(TASK_STATUSES)), to: StringEnum(TASK_STATUSES), actor: Type.String(), at: Timestamp(), detail: Type.Unknown() }),
  ),
  verification: Type.Unknown({ description: 'Latest verification status, null before execution' }),
  rollback: Type.Unknown({ description: 'The rollback, if any' }),
  updated_at: Timestamp(),
  outcome: StringEnum(['site_change', 'brief'], {
    description: 'What approving produces (beyond the contract): `site_change`, a change to the site, written by its connector where it can (else the exact change for you to make); `brief`, a deliverable for you to carry out',
  }),
  can_roll_back: Type.Boolean({ description: 'Completed, and a connector wrote its change: a rollback can put it back' }),
  can_retry: Type.Boolean({ description: 'Failed, and its failure left the site as it was: POST .../retry runs it again' }),
};

/**
 * A task's details, one shape per type (discriminated by `type`): each type's file under
 * task-types/ declares its configuration, what will be changed with exact before -> after values.
 */
export const TaskDetailSchema = Type.Union(
  [
    ...TASK_TYPE_LIST.map((t) =>
      Type.Object({ ...detailFields, type: Type.Literal(t.type), category: Type.Literal(t.category), configuration: configurationSchemaOf(t) }, { title: t.type })),
    // A task stored before its type's schema changed is still answered as it is.
    Type.Object({ ...detailFields, configuration: Type.Unknown({ description: 'What will be changed, with exact before -> after values' }) }, { title: 'other' }),
  ],
  { description: 'A task with its configuration, evidence, deliverables, execution history, verification and rollback; `type` tells which configuration it carries' },
);

export const TaskParams = Type.Object({ task_id: Uuid({ description: 'Task identifier' }) });

/** Rejecting a proposal may say why (beyond the contract): kept in the task's history, for the team and the agent's next proposals. */
export const CancelTaskBody = Type.Optional(Type.Union([
  Type.Object({
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Why it is rejected or cancelled, in your words' })),
  }, { additionalProperties: false }),
  Type.Null(),
]));

/** Filters both task lists take beyond the contract's: the type and the priority (applied before paging). */
const extraFilters = {
  type: Type.Optional(StringEnum(TASK_TYPE_LIST.map((t) => t.type), { description: 'Only tasks of this type' })),
  priority: Type.Optional(StringEnum(TASK_PRIORITIES, { description: 'Only tasks of this priority' })),
};

export const ListTasksQuery = Type.Object(
  {
    site_id: Type.Optional(Uuid({ description: 'Only this site; all of your sites when absent' })),
    workspace_id: Type.Optional(Uuid({ description: "Only this workspace's sites (one the caller is a member of)" })),
    status: Type.Optional(StringEnum(TASK_STATUSES)),
    category: Type.Optional(StringEnum(TASK_CATEGORIES)),
    ...extraFilters,
    ...pageQueryProperties(20, 100),
  },
  { additionalProperties: false },
);

export const ExportTasksQuery = Type.Omit(ListTasksQuery, ['page', 'page_size'], { additionalProperties: false });

export const AwaitingApprovalQuery = Type.Object(
  {
    site_id: Type.Optional(Uuid()), workspace_id: Type.Optional(Uuid({ description: "Only this workspace's sites (one the caller is a member of)" })),
    category: Type.Optional(StringEnum(TASK_CATEGORIES)), ...extraFilters,
    order: Type.Optional(StringEnum(['priority', 'expected_clicks'] as const, {
      description: 'priority (default, the contract\'s): by priority then age; expected_clicks: most expected clicks first, tasks without an estimate last',
    })),
    ...pageQueryProperties(20, 100),
  },
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
    query: Nullable(Type.String({ description: 'The query a search-data task is about: the figures are that query\'s on the page' })),
    realised_clicks_28d: Type.Integer({ description: 'After minus before, brought to 28 days: what the change brought so far' }),
    expected_clicks: Nullable(ExpectedClicksSchema),
    window_days: Type.Integer({ description: 'Equal windows before and after the task completed (up to 28 days, as many as have passed)' }),
    before: Metrics,
    after: Metrics,
  }, { description: "Search Console metrics of the task's page before and after, once search data covers the time after; null otherwise" })),
});
