-- The id of the drafting rule that refused a proposal ('lead_too_long', 'pronoun', 'summary_taken':
-- src/modules/agents/description-writer.ts and drafting/), beside the reason in words; null for
-- refusals that are not a drafting rule's, and for those recorded before it.
alter table task_rejections add column rule text;
