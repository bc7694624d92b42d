-- Two refreshes of one token at the same moment (two tabs, a retried request) both get the
-- pair the first one was issued: it is kept here, sealed with SECRETS_KEY, and is only ever
-- read back within the grace window after used_at. Outside the window a reused token still
-- ends the session.
alter table refresh_tokens add column successor_sealed text;
