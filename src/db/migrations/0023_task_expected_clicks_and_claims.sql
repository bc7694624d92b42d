-- What a proposal is worth: additional clicks from search in 28 days with a range, how it
-- was estimated (src/modules/search-data/expected-clicks.ts); null without search data.
alter table tasks add column expected_clicks jsonb;

-- The fields of pages a task changes ('<url>#title', '<url>#meta_description',
-- '<url>#content:set_image_alts'...): two open tasks never claim the same one, so two
-- approved changes cannot overwrite each other. Checked when a proposal is stored, under a
-- per-site lock (tasks.repo.ts insertProposal).
alter table tasks add column claims text[] not null default '{}';
