-- E-mail notifications, per member and workspace. No row means the defaults (weekly digest,
-- alerts on), so members who never opened the settings still hear about their workspace.
create table notification_settings (
  user_id       uuid not null references users (id) on delete cascade,
  workspace_id  uuid not null references workspaces (id) on delete cascade,
  digest        text not null default 'weekly' check (digest in ('off', 'daily', 'weekly')),
  alerts        boolean not null default true,
  updated_at    timestamptz not null default now(),
  primary key (workspace_id, user_id)
);
