-- What a proposal is worth: additional clicks from search in 28 days with a range, how it
-- was estimated (src/modules/search-data/expected-clicks.ts); null without search data.
alter table tasks add column expected_clicks jsonb;

-- The fields of pages a task changes ('<url>#title', '<url>#meta_description',
-- '<url>#content:set_image_alts'...): two open tasks never claim the same one, so two
-- approved changes cannot overwrite each other. Checked when a proposal is stored, under a
-- per-site lock (tasks.repo.ts insertProposal).
alter table tasks add column claims text[] not null default '{}';

-- Tasks already open claim their fields too (claimsOf in task-types/index.ts, written in SQL
-- for the types that change a field: one task of one page, or `configuration.pages`). A
-- page's address is compared as pageKey does: without its trailing slash, except the root.
create function pg_temp.page_key(url text) returns text language sql immutable as $$
  select case when url ~ '^[a-z]+://[^/]+/*$' then regexp_replace(url, '/*$', '/') else regexp_replace(url, '/+$', '') end
$$;
with fields(type, field) as (values
  ('fix_missing_meta_description', 'meta_description'), ('fix_duplicate_meta_description', 'meta_description'),
  ('fix_title_tag', 'title'), ('optimize_title_tag', 'title'), ('prioritize_quick_wins', 'title'),
  ('fix_broken_links', 'content:unwrap_links'), ('fix_redirect_chains', 'content:retarget_links'), ('add_image_alt_text', 'content:set_image_alts')
), pages as (
  select t.id, f.field, coalesce(p.page->>'url', t.configuration->>'url', t.target) as url
  from tasks t
  join fields f on f.type = t.type
  left join lateral jsonb_array_elements(case when jsonb_typeof(t.configuration->'pages') = 'array' then t.configuration->'pages' else '[]'::jsonb end) p(page) on true
  where t.status in ('awaiting_approval', 'queued', 'in_progress')
    -- A search-data title stored before titles were drafted is a brief: it changes nothing itself.
    and (t.type not in ('optimize_title_tag', 'prioritize_quick_wins') or t.configuration ? 'after')
)
update tasks set claims = claimed.claims
from (select id, array_agg(distinct pg_temp.page_key(url) || '#' || field) as claims from pages where url ~ '^https?://' group by id) claimed
where tasks.id = claimed.id;
