-- Tags a team puts on its keywords (a product line, a client's campaign): chosen by the user,
-- kept when the sync updates the keyword (its upsert never names this column).
alter table keywords add column tags text[] not null default '{}';
create index keywords_tags on keywords using gin (tags);
