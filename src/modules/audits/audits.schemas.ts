import { Type } from 'typebox';
import { pageQueryProperties } from '../../lib/pagination.ts';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../lib/schema.ts';

export const DEFAULT_MAX_PAGES = 500;

export const StartAuditBody = Type.Object(
  {
    site_id: Uuid(),
    max_pages: Type.Optional(Type.Integer({ minimum: 1, maximum: 20_000, default: DEFAULT_MAX_PAGES, description: 'Crawl at most this many pages' })),
  },
  { additionalProperties: false },
);

const AuditFields = {
  id: Uuid(),
  site_id: Uuid(),
  status: StringEnum(['queued', 'running', 'completed', 'failed'] as const),
  max_pages: Type.Integer(),
  pages_crawled: Type.Integer({ description: 'Pages fetched and analysed (URLs robots.txt blocks and crawl-trap copies are counted apart, in pages_by_status)' }),
  pages_discovered: Type.Integer(),
  pages_by_status: Type.Record(Type.String(), Type.Integer(), { description: 'URLs per HTTP status ("0": no answer, "blocked": refused by robots.txt, not fetched; "trap": a crawl trap\'s copy of another page)' }),
  score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  agent: StringEnum(['pending', 'running', 'finished', 'failed', 'skipped'] as const, {
    description: "The strategy agent's run on this audit, a job of its own after the audit completes: pending (the audit is not done, or the run is queued), running, finished (agent_summary says what it made), failed (POST /audits/{audit_id}/agent retries it) or skipped (the audit failed)",
  }),
  agent_error: Nullable(Type.String({ description: 'Why the agent run failed' })),
  agent_summary: Nullable(Type.Object(
    { proposed: Type.Integer(), rejected: Type.Integer(), finished_at: Timestamp() },
    { description: 'What the strategy agent made of this audit: tasks proposed, proposals its gates refused; null until it has run' },
  )),
  error: Nullable(Type.String()),
  created_at: Timestamp(),
  started_at: Nullable(Timestamp()),
  finished_at: Nullable(Timestamp()),
};

export const AuditSchema = Type.Object(AuditFields);

const ScoreLine = Type.Object({
  check_id: Type.String(), severity: Type.String(), affected: Type.Integer(), share: Type.Number(), cost: Type.Number(),
});

export const AuditReportSchema = Type.Object({
  ...AuditFields,
  score_breakdown: Nullable(Type.Array(ScoreLine, { description: 'What each check cost, most expensive first' })),
  new_issues: Nullable(Type.Integer({ description: 'Affected URLs not in the previous completed audit' })),
  fixed_issues: Nullable(Type.Integer({ description: 'Affected URLs of the previous audit that are gone' })),
  issues: Type.Array(
    Type.Object({
      check_id: Type.String(),
      severity: Type.String(),
      category: Type.String(),
      title: Type.String(),
      fix: Type.String(),
      lighthouse: Nullable(Type.String()),
      affected_count: Type.Integer(),
      affected: Type.Array(Type.Object({ url: Type.String(), value: Nullable(Type.String()) }), { description: 'The first 50' }),
    }),
  ),
});

export const IssuePageQuery = Type.Object(pageQueryProperties(50, 200), { additionalProperties: false });
export const IssueParams = Type.Object({ audit_id: Uuid(), check_id: Type.String({ pattern: '^[a-z0-9_]{1,64}$' }) });
