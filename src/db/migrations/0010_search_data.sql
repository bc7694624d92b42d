-- Search data: Search Console and GA4 daily figures per site, and the keywords derived from them.

-- The Search Console property ("sc-domain:example.com" or a URL prefix) and GA4 property ("properties/123") a site reads from.
alter table sites add column gsc_property text;
alter table sites add column ga4_property text;

-- Site totals per day, as Search Console reports them (a day with no data has no row).
create table search_daily (
  site_id      uuid not null references sites (id) on delete cascade,
  date         date not null,
  clicks       integer not null,
  impressions  integer not null,
  ctr          double precision not null,
  position     double precision not null,
  primary key (site_id, date)
);

-- Per query and page per day: what keywords are computed from.
create table search_query_daily (
  site_id      uuid not null references sites (id) on delete cascade,
  date         date not null,
  query        text not null,
  page         text not null,
  clicks       integer not null,
  impressions  integer not null,
  position     double precision not null,
  primary key (site_id, date, query, page)
);

-- GA4 per day.
create table analytics_daily (
  site_id      uuid not null references sites (id) on delete cascade,
  date         date not null,
  sessions     integer not null,
  page_views   integer not null,
  bounce_rate  double precision not null,
  conversions  double precision not null,
  primary key (site_id, date)
);

create table keywords (
  id                 uuid primary key default gen_random_uuid(),
  site_id            uuid not null references sites (id) on delete cascade,
  keyword            text not null,
  source             text not null check (source in ('search_console', 'manual')),
  search_volume      integer not null default 0,
  volume_source      text not null default 'estimated',
  difficulty         integer not null default 0,
  current_position   integer,
  previous_position  integer,
  url                text,
  intent             text not null,
  clicks_28d         integer not null default 0,
  impressions_28d    integer not null default 0,
  created_at         timestamptz not null default now(),
  updated_at         timestamptz not null default now(),
  unique (site_id, keyword)
);
create index keywords_site_created_idx on keywords (site_id, clicks_28d desc, keyword);
