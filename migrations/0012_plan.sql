-- Plans and their check runs (contract §10).

-- Server-chosen plan ids count from 1 across the workspace.
create sequence plan_id_seq;

-- A plan of changes in a project. `specs` is the JSON list of its specs
-- ({id, changeDatabaseConfig: {targets, statement, type}, releaseSource}).
-- `request_id` makes a retried CreatePlan answer the first plan (§0.6).
create table plan (
  project_id  text not null references project (id),
  id          text not null default nextval('plan_id_seq')::text check (id ~ '^([a-z][a-z0-9-]{0,62}|[1-9][0-9]*)$'),
  title       text not null default '',
  description text not null default '',
  specs       jsonb not null default '[]',
  state       text not null default 'ACTIVE' check (state in ('ACTIVE', 'DELETED')),
  creator     text not null,
  request_id  text,
  etag        text not null default md5(random()::text || clock_timestamp()::text),
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now(),
  primary key (project_id, id)
);
create unique index plan_request on plan (creator, request_id) where request_id is not null;
create index plan_create_time on plan (project_id, create_time desc, id desc);

-- One run of a plan's checks. At most one RUNNING run per plan: a newer run
-- cancels the older one. `results` is the JSON list of check results.
create table plan_check_run (
  id          bigint generated always as identity primary key,
  project_id  text not null,
  plan_id     text not null,
  status      text not null default 'RUNNING' check (status in ('RUNNING', 'DONE', 'FAILED', 'CANCELED')),
  results     jsonb not null default '[]',
  error       text not null default '',
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now(),
  foreign key (project_id, plan_id) references plan (project_id, id)
);
create index plan_check_run_plan on plan_check_run (project_id, plan_id, id desc);
create unique index plan_check_run_one_running on plan_check_run (project_id, plan_id) where status = 'RUNNING';
