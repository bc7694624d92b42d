-- The strategy agent's run on an audit, as a state of its own: it runs as a durable job
-- after the audit is stored, so "completed" no longer implies that its tasks exist.
-- pending: the audit is not done yet, or the agent's job is queued; skipped: the audit failed.
alter table audits add column agent text not null default 'pending'
  check (agent in ('pending', 'running', 'finished', 'failed', 'skipped'));
-- Numbered like the audit's own attempts: only the current run may record its result.
alter table audits add column agent_attempt integer not null default 0;
alter table audits add column agent_error text;
-- Before this, the agent ran inside the audit job: a completed audit without a summary lost its run.
update audits set agent = case
  when agent_summary is not null then 'finished'
  when status = 'completed' then 'failed'
  when status = 'failed' then 'skipped'
  else 'pending' end;
update audits set agent_error = 'the agent did not record a result for this audit; retry it' where agent = 'failed';
