-- Rollouts, stages, tasks and task runs (contract §12).

create sequence rollout_id_seq;

-- One rollout per plan. `state` is kept by the server from its tasks (§12.2).
create table rollout (
  project_id  text not null,
  id          text not null default nextval('rollout_id_seq')::text,
  plan_id     text not null,
  issue_id    text,
  title       text not null default '',
  state       text not null default 'NOT_STARTED'
              check (state in ('NOT_STARTED', 'RUNNING', 'PAUSED', 'DONE', 'FAILED', 'CANCELED')),
  creator     text not null,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now(),
  primary key (project_id, id),
  unique (project_id, plan_id),
  foreign key (project_id, plan_id) references plan (project_id, id),
  foreign key (project_id, issue_id) references issue (project_id, id)
);

-- One stage per environment of the targets, in ENVIRONMENT order; `-` holds
-- targets without an environment. The stage id is the environment id.
create table stage (
  project_id  text not null,
  rollout_id  text not null,
  id          text not null,
  position    integer not null,
  state       text not null default 'NOT_STARTED'
              check (state in ('NOT_STARTED', 'RUNNING', 'DONE', 'FAILED', 'SKIPPED', 'CANCELED')),
  update_time timestamptz not null default now(),
  primary key (project_id, rollout_id, id),
  foreign key (project_id, rollout_id) references rollout (project_id, id)
);

-- One task per (spec, target database). The statement is fixed when the
-- rollout is made (the plan can no longer change). `release_file` names the
-- release file a release-sourced task applies ({release, path, version}).
create table task (
  id               bigint generated always as identity primary key,
  project_id       text not null,
  rollout_id       text not null,
  stage_id         text not null,
  position         integer not null,
  spec_id          text not null,
  instance_id      text not null,
  database_name    text not null,
  type             text not null check (type in ('DATABASE_MIGRATE', 'DATABASE_DATA_UPDATE')),
  statement        text not null,
  statement_sha256 text not null,
  release_file     jsonb,
  state            text not null default 'NOT_STARTED'
                   check (state in ('NOT_STARTED', 'PENDING', 'RUNNING', 'DONE', 'FAILED', 'CANCELED', 'SKIPPED')),
  skipped_reason   text not null default '',
  -- Index of the first statement not yet applied (a suspended run continues there).
  next_statement   integer not null default 0,
  update_time      timestamptz not null default now(),
  foreign key (project_id, rollout_id, stage_id) references stage (project_id, rollout_id, id)
);
create index task_rollout on task (project_id, rollout_id, position);
create index task_target on task (instance_id, database_name) where state in ('PENDING', 'RUNNING');

-- One execution of a task. At most one PENDING or RUNNING run per task.
-- `first_statement` is where the run starts (a continuation starts after the
-- statements an earlier run applied); `backend` is the target session running
-- it ({pid} on PostgreSQL, {threadId} on MySQL), for cancellation.
create table task_run (
  id              bigint generated always as identity primary key,
  task_id         bigint not null references task (id),
  project_id      text not null,
  rollout_id      text not null,
  state           text not null default 'PENDING' check (state in ('PENDING', 'RUNNING', 'DONE', 'FAILED', 'CANCELED')),
  creator         text not null,
  first_statement integer not null default 0,
  -- Set when the run must stop: the reason it ends CANCELED.
  cancel_reason   text,
  backend         jsonb,
  transactional   boolean,
  detail          text not null default '',
  error           text not null default '',
  affected_rows   bigint not null default 0,
  run_at          timestamptz,
  create_time     timestamptz not null default now(),
  start_time      timestamptz,
  end_time        timestamptz,
  update_time     timestamptz not null default now()
);
create unique index task_run_one_active on task_run (task_id) where state in ('PENDING', 'RUNNING');
create index task_run_task on task_run (task_id, id desc);
create index task_run_rollout on task_run (project_id, rollout_id, id desc);
create index task_run_running on task_run (state) where state in ('PENDING', 'RUNNING');

-- A task run's per-statement log, in order.
create table task_run_log (
  task_run_id   bigint not null references task_run (id),
  position      integer not null,
  time          timestamptz not null default now(),
  statement     text not null,
  rows_affected bigint not null default 0,
  duration_ms   double precision not null default 0,
  error         text not null default '',
  primary key (task_run_id, position)
);
