-- A sync's query x page rows, staged a page of Search Console's answer at a time (25,000 rows),
-- so a property of millions of rows is never held in memory; once all are in, one transaction
-- replaces the synced days with them (search-data.repo.ts promoteStagedQueryRows), so readers
-- see the old days or the new, never a mix, and a sync that fails leaves the stored data as it
-- was. Rows of a sync that died before promoting them are deleted by the daily housekeeping.
create table search_query_staging (
  sync_id      uuid not null,
  site_id      uuid not null references sites (id) on delete cascade,
  date         date not null,
  query        text not null,
  page         text not null,
  clicks       integer not null,
  impressions  integer not null,
  position     double precision not null,
  staged_at    timestamptz not null default now(),
  primary key (sync_id, date, query, page)
);
create index search_query_staging_staged_idx on search_query_staging (staged_at);
