-- Issue 21's leftovers: e-mail notifications sent once, webhook endpoints that keep failing,
-- and the indexes the daily housekeeping job deletes by.

-- An e-mail notification is claimed here before it is sent, so a retried or duplicated job
-- finds the claim and sends nothing; a send that fails deletes its claim, so the retry sends.
-- subject_key says which one: the digest's day (UTC), the alert's audit id, the disabled
-- webhook and when it was disabled. A claim never confirmed (sent_at null) for 10 minutes is a
-- worker that died while sending, and may be claimed again.
create table notification_sends (
  kind          text not null check (kind in ('digest', 'alert', 'webhook-disabled')),
  user_id       uuid not null references users (id) on delete cascade,
  workspace_id  uuid not null references workspaces (id) on delete cascade,
  subject_key   text not null,
  claimed_at    timestamptz not null default now(),
  sent_at       timestamptz,
  primary key (kind, user_id, workspace_id, subject_key)
);
create index notification_sends_claimed_idx on notification_sends (claimed_at);

-- Deliveries in a row that failed every attempt; a success sets it back to 0. At 20 the
-- endpoint is disabled (webhook-delivery.ts) and the workspace's owners and admins are told.
alter table webhook_endpoints add column consecutive_failures integer not null default 0;

-- What the daily housekeeping job (jobs/housekeeping.repo.ts) deletes by.
create index webhook_deliveries_created_idx on webhook_deliveries (created_at);
create index password_resets_expires_idx on password_resets (expires_at);
create index workspace_invitations_expires_idx on workspace_invitations (expires_at);
