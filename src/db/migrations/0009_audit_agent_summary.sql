-- What the strategy agent made of an audit: proposals stored and refused, and when it finished.
alter table audits add column agent_summary jsonb;
