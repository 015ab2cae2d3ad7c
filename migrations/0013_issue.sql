-- Issues and their approval (contract §11).

-- Server-chosen issue ids count from 1 across the workspace.
create sequence issue_id_seq;

-- One issue per plan while OPEN or DONE; a CANCELED one may be reopened.
-- `approval_template` is the template the first matching WORKSPACE_APPROVAL
-- rule selected ({title, description, steps: [{roles}]}), null until the
-- plan's checks finish; `approvers` the approvals and rejections of the
-- current round ([{status, principal, step, comment, time}]).
create table issue (
  project_id        text not null references project (id),
  id                text not null default nextval('issue_id_seq')::text check (id ~ '^([a-z][a-z0-9-]{0,62}|[1-9][0-9]*)$'),
  plan_id           text not null,
  title             text not null default '',
  description       text not null default '',
  status            text not null default 'OPEN' check (status in ('OPEN', 'DONE', 'CANCELED')),
  labels            jsonb not null default '[]',
  approval_status   text not null default 'CHECKING' check (approval_status in ('CHECKING', 'PENDING', 'APPROVED', 'REJECTED', 'SKIPPED')),
  approval_template jsonb,
  approvers         jsonb not null default '[]',
  current_step      integer not null default 0,
  risk_level        text not null default '',
  -- When approval first became PENDING (svc_issue_approval_duration_seconds).
  pending_time      timestamptz,
  creator           text not null,
  request_id        text,
  etag              text not null default md5(random()::text || clock_timestamp()::text),
  create_time       timestamptz not null default now(),
  update_time       timestamptz not null default now(),
  primary key (project_id, id),
  foreign key (project_id, plan_id) references plan (project_id, id)
);
create unique index issue_one_per_plan on issue (project_id, plan_id) where status in ('OPEN', 'DONE');
create unique index issue_request on issue (creator, request_id) where request_id is not null;
create index issue_create_time on issue (project_id, create_time desc, id desc);
create index issue_workspace_create_time on issue (create_time desc, project_id, id desc);

-- An issue's history: comments by people (COMMENT) and system events (EVENT:
-- approved, rejected, stage started, task failed, ...).
create table issue_comment (
  id          bigint generated always as identity primary key,
  project_id  text not null,
  issue_id    text not null,
  type        text not null default 'COMMENT' check (type in ('COMMENT', 'EVENT')),
  comment     text not null default '',
  -- EVENT entries: {kind, ...} facts of the event.
  event       jsonb,
  creator     text not null,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now(),
  foreign key (project_id, issue_id) references issue (project_id, id)
);
create index issue_comment_issue on issue_comment (project_id, issue_id, id);
