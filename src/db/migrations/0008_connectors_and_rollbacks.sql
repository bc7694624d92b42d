-- How the service changes a site (its connector), and every rollback of a task's changes.

create table site_connectors (
  site_id      uuid primary key references sites (id) on delete cascade,
  type         text not null check (type in ('manual', 'wordpress')),
  -- Non-secret settings (base URL, user name, the fields found on the site).
  settings     jsonb not null default '{}',
  -- The credential, sealed with AES-256-GCM and bound to the site id; never returned.
  secret       text,
  verified_at  timestamptz,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now()
);

create table task_rollbacks (
  id           uuid primary key default gen_random_uuid(),
  task_id      uuid not null references tasks (id) on delete cascade,
  site_id      uuid not null references sites (id) on delete cascade,
  actor        text not null,
  status       text not null check (status in ('running', 'restored', 'failed')),
  -- Each restored change: where, which field, the value put back and the value replaced.
  changes      jsonb not null default '[]',
  checks       jsonb not null default '[]',
  error        jsonb,
  started_at   timestamptz not null default now(),
  finished_at  timestamptz
);
-- At most one rollback under way or done per task: concurrent requests get one winner.
create unique index task_rollbacks_one_live on task_rollbacks (task_id) where status in ('running', 'restored');
create index task_rollbacks_site_idx on task_rollbacks (site_id, started_at desc, id);
