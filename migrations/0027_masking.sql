-- Masking (contract §19.2). A database's column catalog: the columns marked
-- with a semantic type or a classification, as one JSON document beside the
-- database (read whole, once per SQL Editor call; no row = nothing marked).
create table database_catalog (
  instance_id   text not null,
  database_name text not null,
  schemas       jsonb not null,
  update_time   timestamptz not null default now(),
  primary key (instance_id, database_name),
  foreign key (instance_id, database_name) references instance_database (instance_id, name) on delete cascade
);

-- The masking policies: the workspace's MASKING_RULE (resource 'workspace')
-- and each project's MASKING_EXEMPTION (resource 'projects/<id>').
create table masking_policy (
  resource    text not null,
  type        text not null check (type in ('MASKING_RULE', 'MASKING_EXEMPTION')),
  payload     jsonb not null,
  etag        text not null default md5(random()::text || clock_timestamp()::text),
  update_time timestamptz not null default now(),
  primary key (resource, type)
);
