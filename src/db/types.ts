import type { ColumnType, Generated, RawBuilder } from 'kysely';

/** Row types as both drivers return them (see db/client.ts for the type parsers). */
/** Written with a default (or now()) when omitted; always read as a Date. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string | RawBuilder<unknown>>;
type CreatedAt = ColumnType<Date, never, never>;

export type AuditSchedule = 'off' | 'daily' | 'weekly';
export type RenderingMode = 'auto' | 'always' | 'never';

export type Platform =
  | 'wordpress' | 'shopify' | 'wix' | 'squarespace' | 'webflow' | 'drupal' | 'joomla' | 'custom' | 'unknown';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  role: Generated<'user' | 'admin'>;
  password_hash: string | null;
  google_sub: string | null;
  /** Made by accepting an invitation, its address not yet proven (migration 0027). */
  email_unverified: Generated<boolean>;
  /** Set while an admin has disabled the account. */
  disabled_at: Timestamp | null;
  created_at: CreatedAt;
  /** An IANA time zone the person reads dates in (migration 0034); null: the browser's. */
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

export interface PasswordResetsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface RefreshTokensTable {
  id: Generated<string>;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface TokenRevocationsTable {
  seq: Generated<number>;
  token_id: string;
  user_id: string;
  expires_at: Timestamp;
  revoked_at: Timestamp;
}

export type WorkspaceRole = 'owner' | 'admin' | 'editor' | 'viewer';

export interface WorkspacesTable {
  id: Generated<string>;
  name: string;
  /** The user whose personal workspace this is (made with the account); null for a shared one. */
  personal_of: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  role: WorkspaceRole;
  created_at: CreatedAt;
}

export interface WorkspaceInvitationsTable {
  id: Generated<string>;
  workspace_id: string;
  email: string;
  role: WorkspaceRole;
  token_hash: string;
  invited_by: string | null;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  accepted_by: string | null;
  revoked_at: Timestamp | null;
  created_at: CreatedAt;
}

export type DigestFrequency = 'off' | 'daily' | 'weekly';

/** A member's e-mail settings for a workspace; no row means the defaults (weekly, alerts on). */
export interface NotificationSettingsTable {
  user_id: string;
  workspace_id: string;
  digest: ColumnType<DigestFrequency, DigestFrequency | undefined, DigestFrequency>;
  alerts: Generated<boolean>;
  updated_at: Generated<Date>;
}

export type NotificationSendKind = 'digest' | 'alert' | 'webhook-disabled' | 'report';

/** An e-mail notification claimed before it is sent (migration 0030): a retried job sends nothing twice. */
export interface NotificationSendsTable {
  kind: NotificationSendKind;
  user_id: string;
  workspace_id: string;
  subject_key: string;
  claimed_at: Generated<Date>;
  sent_at: Date | null;
}

export interface WebhookEndpointsTable {
  id: Generated<string>;
  workspace_id: string;
  url: string;
  /** Event types received (a JSON array of strings); empty: all. */
  events: ColumnType<string[], string | undefined, string>;
  enabled: Generated<boolean>;
  description: Generated<string>;
  secret_sealed: string;
  disabled_reason: string | null;
  /** Deliveries in a row that failed every attempt (migration 0030). */
  consecutive_failures: Generated<number>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SitesTable {
  gsc_property: string | null;
  ga4_property: string | null;
  search_backfilled: Generated<boolean>;
  search_synced_at: Timestamp | null;
  search_sync_error: string | null;
  id: Generated<string>;
  /** The member who added the site (null once that account is deleted): its search data comes through their Google connection. */
  owner_id: string | null;
  workspace_id: string;
  name: string;
  domain: string;
  platform: ColumnType<Platform, Platform | undefined, Platform>;
  is_active: Generated<boolean>;
  health_score: number | null;
  audit_schedule: ColumnType<AuditSchedule, AuditSchedule | undefined, AuditSchedule>;
  /** JavaScript rendering in its audits (migration 0039; crawler/render-rules.ts RenderingMode). */
  rendering: ColumnType<RenderingMode, RenderingMode | undefined, RenderingMode>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** One line of an audit's score explanation (see modules/checks/score.ts). */
export interface ScoreLineRow {
  check_id: string;
  severity: string;
  affected: number;
  share: number;
  cost: number;
}

export type AuditStatus = 'queued' | 'running' | 'completed' | 'failed';
export type AgentStatus = 'pending' | 'running' | 'finished' | 'failed' | 'skipped';

export interface AgentSummary {
  proposed: number;
  rejected: number;
  finished_at: string;
}

export interface AuditsTable {
  id: Generated<string>;
  site_id: string;
  status: ColumnType<AuditStatus, AuditStatus | undefined, AuditStatus>;
  max_pages: number;
  attempt: Generated<number>;
  pages_crawled: Generated<number>;
  pages_discovered: Generated<number>;
  pages_by_status: ColumnType<Record<string, number>, string | undefined, string>;
  score: number | null;
  score_breakdown: ColumnType<ScoreLineRow[] | null, string | null | undefined, string | null>;
  agent_summary: ColumnType<AgentSummary | null, string | null | undefined, string | null>;
  /** What search and AI crawlers may fetch, and /llms.txt, as crawled (migration 0038; the shape of crawler/crawl.types.ts AiAccess). */
  ai_access: ColumnType<unknown, string | null | undefined, string | null>;
  /** How the crawl rendered pages (migration 0039; crawl.types.ts RenderingSummary). */
  rendering: ColumnType<unknown, string | null | undefined, string | null>;
  /** Core Web Vitals, lab and field (migration 0040; page-speed/measure.ts PageSpeedReport). */
  page_speed: ColumnType<unknown, string | null | undefined, string | null>;
  agent: ColumnType<AgentStatus, AgentStatus | undefined, AgentStatus>;
  agent_attempt: Generated<number>;
  agent_error: string | null;
  error: string | null;
  created_at: CreatedAt;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export interface AuditIssuesTable {
  audit_id: string;
  check_id: string;
  url: string;
  value: string | null;
}

export type TaskStatus = 'awaiting_approval' | 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'rolled_back';
export type TaskCategory = 'strategy' | 'research' | 'content' | 'technical' | 'seo';
export type TaskPriority = 'critical' | 'high' | 'medium' | 'low';
type Json = ColumnType<unknown, string | undefined, string>;

/** tasks.expected_clicks (the shape of search-data/expected-clicks.ts ExpectedClicks). */
export interface ExpectedClicksColumn {
  clicks: number;
  low: number;
  high: number;
  basis: 'site_curve' | 'industry_curve' | 'page_clicks';
  method: string;
}

export interface TasksTable {
  id: Generated<string>;
  site_id: string;
  type: string;
  category: TaskCategory;
  priority: TaskPriority;
  status: ColumnType<TaskStatus, TaskStatus | undefined, TaskStatus>;
  title: string;
  description: string;
  target: string;
  configuration: Json;
  evidence: Json;
  deliverables: Json;
  error: ColumnType<unknown, string | null | undefined, string | null>;
  /** The execution attempt that owns the task while it is in progress (migration 0021). */
  execution_lease: ColumnType<string | null, string | null | undefined, string | null>;
  /** Additional clicks in 28 days the task is expected to bring, with its range and method (migration 0023). */
  expected_clicks: ColumnType<ExpectedClicksColumn | null, string | null | undefined, string | null>;
  /** The page fields the task changes ('<url>#title'...): no two open tasks share one (migration 0023). */
  claims: ColumnType<string[], string[] | undefined, string[]>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface TaskEventsTable {
  id: Generated<number>;
  task_id: string;
  from_status: TaskStatus | null;
  to_status: TaskStatus;
  actor: string;
  detail: ColumnType<unknown, string | null | undefined, string | null>;
  at: Generated<Date>;
}

export interface AuditPagesTable {
  audit_id: string;
  url: string;
  status: number | null;
  title: string | null;
  meta_description: string | null;
  depth: number | null;
  inlinks: Generated<number>;
  content_hash: string | null;
  redirect_to: string | null;
  /** The page's own text as the crawl kept it (StoredPageContent); null for pages that are not HTML answering 200. */
  content: Json | null;
  /** Raw against rendered, for a page rendered in Chromium (migration 0039; render-compare.ts PageRendering). */
  rendering: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface TaskRejectionsTable {
  id: Generated<string>;
  site_id: string;
  audit_id: string | null;
  type: string;
  target: string;
  reason: string;
  rule: string | null;
  created_at: CreatedAt;
}

export type VerificationStatus = 'pending' | 'verified' | 'failed' | 'not_applicable';

export interface TaskVerificationsTable {
  task_id: string;
  status: VerificationStatus;
  checks: ColumnType<unknown, string | undefined, string>;
  attempts: Generated<number>;
  checked_at: Timestamp | null;
}

export type ConnectorType = 'manual' | 'wordpress';

export interface SiteConnectorsTable {
  site_id: string;
  type: ConnectorType;
  settings: ColumnType<unknown, string | undefined, string>;
  secret: string | null;
  verified_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface TaskRollbacksTable {
  id: Generated<string>;
  task_id: string;
  site_id: string;
  actor: string;
  status: 'running' | 'restored' | 'failed';
  changes: ColumnType<unknown, string | undefined, string>;
  checks: ColumnType<unknown, string | undefined, string>;
  error: ColumnType<unknown, string | null | undefined, string | null>;
  started_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface SearchDailyTable {
  site_id: string;
  date: string;
  clicks: number;
  impressions: number;
  ctr: number;
  position: number;
}

/** Search Console's figures per country or device per day (migration 0035). */
export interface SearchSegmentDailyTable {
  site_id: string;
  dimension: 'country' | 'device';
  date: string;
  key: string;
  clicks: number;
  impressions: number;
  position: number;
}

export interface SearchQueryDailyTable {
  site_id: string;
  date: string;
  query: string;
  page: string;
  clicks: number;
  impressions: number;
  position: number;
}

/** A sync's query rows before they replace its days (migration 0037). */
export interface SearchQueryStagingTable extends SearchQueryDailyTable {
  sync_id: string;
  staged_at: Generated<Date>;
}

export interface AnalyticsDailyTable {
  site_id: string;
  date: string;
  sessions: number;
  page_views: number;
  bounce_rate: number;
  conversions: number;
}

export interface KeywordsTable {
  id: Generated<string>;
  site_id: string;
  keyword: string;
  source: 'search_console' | 'manual';
  search_volume: Generated<number>;
  volume_source: Generated<string>;
  difficulty: Generated<number>;
  current_position: number | null;
  previous_position: number | null;
  url: string | null;
  intent: 'informational' | 'navigational' | 'commercial' | 'transactional';
  clicks_28d: Generated<number>;
  impressions_28d: Generated<number>;
  /** Chosen by the user (migration 0032); the sync never writes them. */
  tags: Generated<string[]>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface OauthStatesTable {
  state_hash: string;
  purpose: 'connect' | 'signin';
  user_id: string | null;
  code_verifier: string;
  nonce: string | null;
  return_to: 'app' | null;
  created_at: CreatedAt;
}

export interface GoogleConnectionsTable {
  user_id: string;
  google_sub: string;
  email: string | null;
  scopes: string;
  refresh_token: string;
  access_token: string | null;
  access_expires_at: Timestamp | null;
  status: Generated<'active' | 'revoked'>;
  connected_at: CreatedAt;
}

export type ReportFrequency = 'weekly' | 'monthly';

/** A site's client report e-mailed on a schedule (migration 0036). */
export interface ReportSchedulesTable {
  site_id: string;
  frequency: ReportFrequency;
  compare: ColumnType<'previous' | 'year', 'previous' | 'year' | undefined, 'previous' | 'year'>;
  recipients: string[];
  sender_id: string;
  last_sent_period: string | null;
  last_error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SchemaMigrationsTable {
  version: string;
  applied_at: Generated<Date>;
}

export interface DB {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  token_revocations: TokenRevocationsTable;
  password_resets: PasswordResetsTable;
  sites: SitesTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  workspace_invitations: WorkspaceInvitationsTable;
  notification_settings: NotificationSettingsTable;
  notification_sends: NotificationSendsTable;
  report_schedules: ReportSchedulesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  audits: AuditsTable;
  audit_issues: AuditIssuesTable;
  tasks: TasksTable;
  audit_pages: AuditPagesTable;
  task_rejections: TaskRejectionsTable;
  task_verifications: TaskVerificationsTable;
  task_events: TaskEventsTable;
  site_connectors: SiteConnectorsTable;
  task_rollbacks: TaskRollbacksTable;
  search_daily: SearchDailyTable;
  search_query_daily: SearchQueryDailyTable;
  search_query_staging: SearchQueryStagingTable;
  search_segment_daily: SearchSegmentDailyTable;
  analytics_daily: AnalyticsDailyTable;
  keywords: KeywordsTable;
  oauth_states: OauthStatesTable;
  google_connections: GoogleConnectionsTable;
  schema_migrations: SchemaMigrationsTable;
}
