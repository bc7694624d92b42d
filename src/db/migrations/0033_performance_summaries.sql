-- The performance report's table for the default period, stored. A property of 16 months and
-- ten million query x page x day rows has ~1.2 million in a 28-day period and its comparison:
-- aggregating them per query on every request takes seconds. After each sync writes query rows,
-- refresh_performance_summaries() stores every query's and page's figures in the last 28 days
-- of data beside the 28 days before and the same dates a year before (a set per period,
-- comparison and dimension); the report reads a set when its request names exactly those dates,
-- and aggregates the rows otherwise.

create table performance_summary_sets (
  id               bigint generated always as identity primary key,
  site_id          uuid not null references sites (id) on delete cascade,
  dimension        text not null check (dimension in ('query', 'page')),
  start_date       date not null,
  end_date         date not null,
  comparison_start date not null,
  comparison_end   date not null,
  refreshed_at     timestamptz not null default now(),
  unique (site_id, dimension, start_date, end_date, comparison_start, comparison_end)
);

-- One row per query or page with rows in either period. A period's figures are null when the key
-- has no row in it (not zero: a key that had rows with no clicks is listed, one without rows is
-- not). The weighted position is summed exactly (numeric), as the live query sums it, so both
-- give the same double whatever order the rows are read in.
create table performance_summaries (
  set_id              bigint not null references performance_summary_sets (id) on delete cascade,
  key                 text not null,
  clicks              bigint,
  impressions         bigint,
  weighted_position   double precision,
  p_clicks            bigint,
  p_impressions       bigint,
  p_weighted_position double precision,
  primary key (set_id, key)
);

-- Any change to a site's query rows (the sync's, or anyone's) drops its sets: a set is never read
-- stale. The sync stores them again, in the same transaction, once its rows are written.
create function performance_summaries_stale() returns trigger language plpgsql as $$
begin
  if tg_op = 'TRUNCATE' then
    delete from performance_summary_sets;
  elsif tg_op = 'DELETE' then
    delete from performance_summary_sets where site_id in (select distinct site_id from old_rows);
  else
    delete from performance_summary_sets where site_id in (select distinct site_id from new_rows);
  end if;
  return null;
end $$;
create trigger search_query_daily_inserted after insert on search_query_daily
  referencing new table as new_rows for each statement execute function performance_summaries_stale();
create trigger search_query_daily_updated after update on search_query_daily
  referencing new table as new_rows for each statement execute function performance_summaries_stale();
create trigger search_query_daily_deleted after delete on search_query_daily
  referencing old table as old_rows for each statement execute function performance_summaries_stale();
create trigger search_query_daily_truncated after truncate on search_query_daily
  for each statement execute function performance_summaries_stale();

-- Stores the site's sets for the report's default period: the last 28 days of data (ending at
-- the last day of search_daily, never after `yesterday`, Search Console's last day in Pacific
-- Time: report-periods.ts reportRange) against the 28 days before and against the same dates a
-- year before (12 months before the first day, 29 February read as the 28th), for queries and
-- pages. One pass over the days of the three periods.
create function refresh_performance_summaries(site uuid, yesterday date) returns void language plpgsql as $$
declare
  last_day date := (select max(date) from search_daily where site_id = site);
  e date := case when last_day is not null and last_day < yesterday then last_day else yesterday end;
  s date := e - 27;
  ps date := s - 28;
  pe date := s - 1;
  ys date := (s - interval '12 months')::date;
  ye date := (s - interval '12 months')::date + 27;
begin
  -- One refresh of a site at a time: a second waits, then replaces the first's sets.
  perform pg_advisory_xact_lock(727431033, hashtext(site::text));
  delete from performance_summary_sets where site_id = site;
  insert into performance_summary_sets (site_id, dimension, start_date, end_date, comparison_start, comparison_end)
  values (site, 'query', s, e, ps, pe), (site, 'page', s, e, ps, pe), (site, 'query', s, e, ys, ye), (site, 'page', s, e, ys, ye);

  with figures as (
    select case when grouping(query) = 0 then 'query' else 'page' end as dimension, coalesce(query, page) as key,
      count(*) filter (where date >= s) as n,
      sum(clicks) filter (where date >= s) as clicks,
      sum(impressions) filter (where date >= s) as impressions,
      sum((position * impressions)::numeric) filter (where date >= s)::float8 as weighted_position,
      count(*) filter (where date between ps and pe) as pn,
      sum(clicks) filter (where date between ps and pe) as p_clicks,
      sum(impressions) filter (where date between ps and pe) as p_impressions,
      sum((position * impressions)::numeric) filter (where date between ps and pe)::float8 as p_weighted_position,
      count(*) filter (where date between ys and ye) as yn,
      sum(clicks) filter (where date between ys and ye) as y_clicks,
      sum(impressions) filter (where date between ys and ye) as y_impressions,
      sum((position * impressions)::numeric) filter (where date between ys and ye)::float8 as y_weighted_position
    from search_query_daily
    where site_id = site and (date between ps and e or date between ys and ye)
    group by grouping sets ((query), (page))
  ),
  sets as (select id, dimension, comparison_start from performance_summary_sets where site_id = site)
  insert into performance_summaries (set_id, key, clicks, impressions, weighted_position, p_clicks, p_impressions, p_weighted_position)
  select sets.id, f.key,
    case when f.n > 0 then f.clicks end, case when f.n > 0 then f.impressions end, case when f.n > 0 then f.weighted_position end,
    case when sets.comparison_start = ps then f.p_clicks else f.y_clicks end,
    case when sets.comparison_start = ps then f.p_impressions else f.y_impressions end,
    case when sets.comparison_start = ps then f.p_weighted_position else f.y_weighted_position end
  from figures f join sets on sets.dimension = f.dimension
  where f.n > 0 or (case when sets.comparison_start = ps then f.pn else f.yn end) > 0;
end $$;
