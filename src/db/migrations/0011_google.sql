-- Google: OAuth round trips in flight, each user's connection (sealed tokens), and per-site sync state.

create table oauth_states (
  state_hash     text primary key,              -- sha256 of the state sent to Google
  purpose        text not null check (purpose in ('connect', 'signin')),
  user_id        uuid references users (id) on delete cascade,
  code_verifier  text not null,                 -- PKCE verifier, sealed
  nonce          text,
  created_at     timestamptz not null default now()
);

create table google_connections (
  user_id            uuid primary key references users (id) on delete cascade,
  google_sub         text not null,
  email              text,
  scopes             text not null,
  refresh_token      text not null,             -- sealed with SECRETS_KEY
  access_token       text,                      -- sealed
  access_expires_at  timestamptz,
  status             text not null default 'active' check (status in ('active', 'revoked')),
  connected_at       timestamptz not null default now()
);

alter table users add column google_sub text unique;

alter table sites add column search_backfilled boolean not null default false;
alter table sites add column search_synced_at timestamptz;
alter table sites add column search_sync_error text;
