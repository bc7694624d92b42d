-- Tasks proposed by the agents, and every transition each one went through.

create table tasks (
  id             uuid primary key default gen_random_uuid(),
  site_id        uuid not null references sites (id) on delete cascade,
  type           text not null,
  category       text not null check (category in ('strategy', 'research', 'content', 'technical', 'seo')),
  priority       text not null check (priority in ('critical', 'high', 'medium', 'low')),
  status         text not null default 'awaiting_approval' check (status in
                   ('awaiting_approval', 'queued', 'in_progress', 'completed', 'failed', 'cancelled', 'rolled_back')),
  title          text not null,
  description    text not null,
  -- What the task acts on (a URL, or the site): with type, what makes two proposals the same.
  target         text not null,
  configuration  jsonb not null default '{}',
  evidence       jsonb not null default '[]',
  deliverables   jsonb not null default '[]',
  error          jsonb,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now()
);
create index tasks_site_created_idx on tasks (site_id, created_at desc, id);
create index tasks_site_status_idx on tasks (site_id, status);
-- A quality gate in the schema: no second open task of one type for one target.
create unique index tasks_one_open_per_target on tasks (site_id, type, target)
  where status in ('awaiting_approval', 'queued', 'in_progress');

create table task_events (
  id           bigserial primary key,
  task_id      uuid not null references tasks (id) on delete cascade,
  from_status  text,
  to_status    text not null,
  actor        text not null,
  detail       jsonb,
  at           timestamptz not null default now()
);
create index task_events_task_idx on task_events (task_id, id);
