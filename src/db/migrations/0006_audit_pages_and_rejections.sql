-- The pages an audit saw, with what the agents need to keep proposed values unique.
create table audit_pages (
  audit_id          uuid not null references audits (id) on delete cascade,
  url               text not null,
  status            integer,
  title             text,
  meta_description  text,
  primary key (audit_id, url)
);

-- Proposals the strategy agent's quality gates refused, with the reason (shown to admins).
create table task_rejections (
  id          uuid primary key default gen_random_uuid(),
  site_id     uuid not null references sites (id) on delete cascade,
  audit_id    uuid references audits (id) on delete set null,
  type        text not null,
  target      text not null,
  reason      text not null,
  created_at  timestamptz not null default now()
);
create index task_rejections_site_idx on task_rejections (site_id, created_at desc);
