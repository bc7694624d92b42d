-- A per-target check (every broken link of a page) keeps one row per page and target, not
-- only the first target of each page: the key (audit_id, check_id, url) no longer fits.
-- The crawler's Findings keep (check, url, value) unique; the index serves the report's paging.
alter table audit_issues drop constraint audit_issues_pkey;
create index audit_issues_check_url_idx on audit_issues (audit_id, check_id, url);
