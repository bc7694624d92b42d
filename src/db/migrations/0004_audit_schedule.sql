-- How often the service re-audits a site on its own (after its first audit).
alter table sites add column audit_schedule text not null default 'weekly'
  check (audit_schedule in ('off', 'daily', 'weekly'));
