-- The execution attempt that owns an in-progress task. A retried job (the worker died, or
-- the job expired while a slow site answered) takes the lease over and resumes a task that
-- covers several pages after the pages already done; the attempt it replaced can then save
-- nothing more and stops (a fencing token).
alter table tasks add column execution_lease uuid;
