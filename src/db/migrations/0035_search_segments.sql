-- Search Console's figures per country and per device, per day (its "Countries" and "Devices"
-- tables). Stored apart from the query x page rows: Search Console reports each dimension on
-- its own, and a property's countries x queries x pages would be too many rows to keep.
create table search_segment_daily (
  site_id      uuid not null references sites (id) on delete cascade,
  dimension    text not null check (dimension in ('country', 'device')),
  date         date not null,
  key          text not null,
  clicks       integer not null,
  impressions  integer not null,
  position     double precision not null,
  primary key (site_id, dimension, date, key)
);
