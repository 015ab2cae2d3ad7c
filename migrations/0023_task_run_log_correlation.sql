-- Each statement's entry of a task run's log carries the correlation id of
-- the work that executed it (contract §15.5: the request that enqueued the
-- run's job, or the leader run that dispatched it); '' for entries written
-- before.
alter table task_run_log add column correlation_id text not null default '';
