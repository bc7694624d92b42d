-- The latest verification of each executed task: are its changes live on the site?
create table task_verifications (
  task_id     uuid primary key references tasks (id) on delete cascade,
  status      text not null check (status in ('pending', 'verified', 'failed', 'not_applicable')),
  checks      jsonb not null default '[]',
  attempts    integer not null default 0,
  checked_at  timestamptz
);
