-- The active runs by state and task. Each end of a run dispatches the PENDING
-- runs of its target database's tasks: with the state alone as the key, that
-- lookup walked the entry of every PENDING run (and the dead entries of
-- earlier ones, until a vacuum), a cost that grew with the rollout's size,
-- paid once per run. Keyed by task as well, it reads the tasks' own entries.
-- Lookups by state alone (the reconciler's) still find a leading column.

drop index task_run_running;
create index task_run_active on task_run (state, task_id) where state in ('PENDING', 'RUNNING');
