-- Releases and revisions (contract §13).

create sequence release_id_seq;

-- An immutable, ordered set of versioned files ([{path, version, type,
-- changeType, statement, sha256}]); only the title changes.
create table release (
  project_id  text not null references project (id),
  id          text not null default nextval('release_id_seq')::text check (id ~ '^([a-z][a-z0-9-]{0,62}|[1-9][0-9]*)$'),
  title       text not null default '',
  files       jsonb not null default '[]',
  vcs_source  jsonb,
  state       text not null default 'ACTIVE' check (state in ('ACTIVE', 'DELETED')),
  creator     text not null,
  request_id  text,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now(),
  primary key (project_id, id)
);
create unique index release_request on release (creator, request_id) where request_id is not null;
create index release_create_time on release (project_id, create_time desc, id desc);

-- A version applied to a database: by a release-sourced task run (recorded
-- in the transaction that marks the run DONE) or recorded by hand (baseline).
-- One live revision per version and database.
create table revision (
  id            bigint generated always as identity primary key,
  instance_id   text not null,
  database_name text not null,
  release       text not null default '',
  file          text not null default '',
  version       text not null,
  sha256        text not null,
  task_run_id   bigint references task_run (id),
  creator       text not null,
  create_time   timestamptz not null default now(),
  delete_time   timestamptz,
  foreign key (instance_id, database_name) references instance_database (instance_id, name)
);
create unique index revision_live_version on revision (instance_id, database_name, version) where delete_time is null;
create index revision_database on revision (instance_id, database_name, id desc);
