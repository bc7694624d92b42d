-- Accounts, their tokens, and their websites.
-- PostgreSQL 15 is the oldest server we support: nothing newer than 15 here.

create table users (
  id            uuid primary key default gen_random_uuid(),
  email         text not null unique,           -- stored lower-cased by the service
  name          text not null,
  role          text not null default 'user' check (role in ('user', 'admin')),
  password_hash text,                           -- null for accounts that only sign in with Google
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now()
);

-- Opaque refresh tokens, kept only as SHA-256 hashes. A family is one login's chain of
-- rotations: presenting a token that was already used revokes the whole family.
create table refresh_tokens (
  id          uuid primary key default gen_random_uuid(),
  user_id     uuid not null references users (id) on delete cascade,
  family_id   uuid not null,
  token_hash  text not null unique,
  expires_at  timestamptz not null,
  used_at     timestamptz,
  revoked_at  timestamptz,
  created_at  timestamptz not null default now()
);
create index refresh_tokens_family_idx on refresh_tokens (family_id);
create index refresh_tokens_user_idx on refresh_tokens (user_id);

-- Revocations that must outlive a database round trip per request: an access token's
-- jti (logout) or a whole session's id (a refresh-token family, on logout or reuse).
-- Every instance keeps them in memory and polls for rows past the last seq it saw.
create table token_revocations (
  seq         bigserial primary key,
  token_id    uuid not null unique,
  user_id     uuid not null references users (id) on delete cascade,
  expires_at  timestamptz not null,
  revoked_at  timestamptz not null default now()
);
create index token_revocations_expires_idx on token_revocations (expires_at);

create table sites (
  id            uuid primary key default gen_random_uuid(),
  owner_id      uuid not null references users (id) on delete cascade,
  name          text not null,
  domain        text not null,
  platform      text not null default 'unknown' check (platform in
                  ('wordpress', 'shopify', 'wix', 'squarespace', 'webflow', 'drupal', 'joomla', 'custom', 'unknown')),
  is_active     boolean not null default true,
  health_score  integer check (health_score between 0 and 100),
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now(),
  constraint sites_owner_domain_key unique (owner_id, domain)
);
create index sites_owner_created_idx on sites (owner_id, created_at desc, id);
