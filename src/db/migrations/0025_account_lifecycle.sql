-- Account lifecycle (issue 21): an admin may disable an account, and a forgotten password is
-- reset with a single-use link sent by e-mail.

-- Set while an admin has disabled the account: it cannot sign in, and its sessions were ended
-- when it was set. Null for an account in use.
alter table users add column disabled_at timestamptz;

-- A link to choose a new password. Only the SHA-256 hash of its token is kept (the token itself
-- travels sealed in the e-mail job and in the message); it is good once, for 30 minutes.
create table password_resets (
  id          uuid primary key default gen_random_uuid(),
  user_id     uuid not null references users (id) on delete cascade,
  token_hash  text not null unique,
  expires_at  timestamptz not null,
  used_at     timestamptz,
  created_at  timestamptz not null default now()
);
create index password_resets_user_idx on password_resets (user_id);
