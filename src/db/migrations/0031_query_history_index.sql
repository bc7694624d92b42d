-- A keyword's rank history reads one query's rows of a site over months: without this index
-- it scans every query of the site in the period (millions of rows on a large property).
create index search_query_daily_by_query on search_query_daily (site_id, query, date);
