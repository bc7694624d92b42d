-- What the strategy agent drafts and prioritises from, kept by the crawl so it need not
-- download the pages again: the page's own text (template removed), its place in the
-- site (click depth, internal links in), its content hash (one page under two URLs) and
-- where it redirects.
alter table audit_pages
  add column depth         integer,
  add column inlinks       integer not null default 0,
  add column content_hash  text,
  add column redirect_to   text,
  add column content       jsonb;
