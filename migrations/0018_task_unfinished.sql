-- The unfinished tasks of each stage, by state: after a task run ends, the
-- follow-up asks whether the task's stage still has tasks at work and none
-- waiting to start (then nothing above the task changes), without counting
-- every task of a rollout with hundreds of targets.

create index task_unfinished on task (project_id, rollout_id, stage_id, state)
  where state in ('NOT_STARTED', 'PENDING', 'RUNNING');
