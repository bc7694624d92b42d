-- Site audits: one row per crawl, its issues one row per affected URL of a check.

create table audits (
  id                uuid primary key default gen_random_uuid(),
  site_id           uuid not null references sites (id) on delete cascade,
  status            text not null default 'queued' check (status in ('queued', 'running', 'completed', 'failed')),
  max_pages         integer not null check (max_pages between 1 and 20000),
  pages_crawled     integer not null default 0,
  pages_discovered  integer not null default 0,
  pages_by_status   jsonb not null default '{}',
  score             integer check (score between 0 and 100),
  score_breakdown   jsonb,
  error             text,
  created_at        timestamptz not null default now(),
  started_at        timestamptz,
  finished_at       timestamptz
);
-- One queued or running audit per site: a second request gets the running one.
create unique index audits_one_active_per_site on audits (site_id) where status in ('queued', 'running');
create index audits_site_created_idx on audits (site_id, created_at desc);

create table audit_issues (
  audit_id  uuid not null references audits (id) on delete cascade,
  check_id  text not null,
  url       text not null,
  value     text,
  primary key (audit_id, check_id, url)
);
