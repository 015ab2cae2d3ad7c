-- Projects (contract §9.1): the scope of databases, plans, issues and project
-- IAM. Project `default` exists from the start, holds databases not assigned
-- elsewhere, and cannot be deleted.
create table project (
  id                         text primary key check (id ~ '^[a-z][a-z0-9-]{0,62}$'),
  title                      text not null default '',
  key                        text not null default '',
  state                      text not null default 'ACTIVE' check (state in ('ACTIVE', 'DELETED')),
  labels                     jsonb not null default '{}',
  -- null: the workspace's disallow_self_approval_default decides.
  allow_self_approval        boolean,
  parallel_tasks_per_rollout integer not null default 0 check (parallel_tasks_per_rollout >= 0),
  lock_timeout_ms            bigint not null default 10000 check (lock_timeout_ms >= 0),
  statement_timeout_ms       bigint not null default 0 check (statement_timeout_ms >= 0),
  require_plan_check_success boolean not null default true,
  creator                    text not null default '',
  etag                       text not null default md5(random()::text || clock_timestamp()::text),
  create_time                timestamptz not null default now(),
  update_time                timestamptz not null default now()
);
-- Keyset paging of ListProjects runs newest first.
create index project_create_time on project (create_time desc, id desc);

insert into project (id, title, key) values ('default', 'Default project', 'DEF');
-- Every project has a policy row, so its first SetIamPolicy can carry an etag too.
insert into iam_policy (scope) values ('projects/default');
