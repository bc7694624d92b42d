-- Client reports e-mailed on a schedule (issue 22): at most one schedule a site. The report is
-- built with the access of the member who set the schedule (sender_id): once that member can no
-- longer manage the site (admin), nothing is sent. last_sent_period is the last period queued
-- for sending ('YYYY-MM-DD..YYYY-MM-DD'): the hourly run queues a period once, however often it
-- runs; a delivery that fails every attempt sets it back, so the next run queues it again.
create table report_schedules (
  site_id           uuid primary key references sites (id) on delete cascade,
  frequency         text not null check (frequency in ('weekly', 'monthly')),
  compare           text not null default 'previous' check (compare in ('previous', 'year')),
  recipients        text[] not null check (cardinality(recipients) between 1 and 10),
  sender_id         uuid not null references users (id) on delete cascade,
  last_sent_period  text,
  -- Why the last report queued was not sent (the setter lost access, the mail server refused it
  -- on every attempt); null once one is.
  last_error        text,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now()
);

-- A scheduled report is claimed per recipient before it is sent, like the other e-mails.
alter table notification_sends drop constraint notification_sends_kind_check;
alter table notification_sends add constraint notification_sends_kind_check
  check (kind in ('digest', 'alert', 'webhook-disabled', 'report'));
