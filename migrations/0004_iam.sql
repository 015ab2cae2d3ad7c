-- IAM policies (contract §6.4): one binding set per scope, workspaces/- or
-- projects/<id>, replaced as a whole on every write and guarded by its etag.
create table iam_policy (
  scope       text primary key,
  bindings    jsonb not null default '[]',
  etag        text not null default md5(random()::text || clock_timestamp()::text),
  update_time timestamptz not null default now(),
  updater     text not null default ''
);

insert into iam_policy (scope) values ('workspaces/-');
