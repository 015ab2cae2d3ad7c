-- Instances and their databases (contract §9.3, §9.5).

-- A database server. `data_sources` is the JSON list of its connections (one
-- ADMIN, at most one READ_ONLY); each password inside is sealed under the
-- operator's key (§9.4). Sync facts are written by the sync job.
create table instance (
  id             text primary key check (id ~ '^[a-z][a-z0-9-]{0,62}$'),
  title          text not null default '',
  engine         text not null check (engine in ('POSTGRES', 'MYSQL')),
  environment    text not null,
  data_sources   jsonb not null default '[]',
  state          text not null default 'ACTIVE' check (state in ('ACTIVE', 'DELETED')),
  engine_version text not null default '',
  last_sync_time timestamptz,
  sync_state     text check (sync_state in ('OK', 'FAILED')),
  sync_error     text not null default '',
  creator        text not null default '',
  etag           text not null default md5(random()::text || clock_timestamp()::text),
  create_time    timestamptz not null default now(),
  update_time    timestamptz not null default now()
);
create index instance_create_time on instance (create_time desc, id desc);

-- A database found on an instance by sync. `environment` is its own
-- environment when set, else the instance's applies. `metadata` is the schema
-- metadata of the last successful sync (schemas, tables, columns, indexes,
-- constraints, views, functions).
create table instance_database (
  instance_id    text not null references instance (id),
  name           text not null,
  project_id     text not null default 'default' references project (id),
  environment    text,
  labels         jsonb not null default '{}',
  state          text not null default 'ACTIVE' check (state in ('ACTIVE', 'DELETED')),
  sync_state     text check (sync_state in ('OK', 'FAILED')),
  sync_error     text not null default '',
  last_sync_time timestamptz,
  metadata       jsonb,
  schema_version text not null default '',
  etag           text not null default md5(random()::text || clock_timestamp()::text),
  create_time    timestamptz not null default now(),
  update_time    timestamptz not null default now(),
  primary key (instance_id, name)
);
-- Permission checks resolve a database name to its project; lists page by name.
create index instance_database_project on instance_database (project_id, instance_id, name);
