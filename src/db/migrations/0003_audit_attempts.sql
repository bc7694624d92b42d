-- Each run of an audit job takes the next attempt number; only the current attempt may
-- write progress or results, so a worker presumed dead that wakes up late changes nothing.
alter table audits add column attempt integer not null default 0;
