-- The SQL Editor's query history (contract §19.1): one row per query, export
-- and execution that reached its target, with the caller as creator. Rows
-- older than WORKSPACE_PROFILE.query_history_retention are deleted by the
-- leader's clean-up.
create table query_history (
  id          bigint generated always as identity primary key,
  creator     text not null,
  database    text not null,
  statement   text not null,
  type        text not null check (type in ('QUERY', 'EXPORT', 'EXECUTE')),
  create_time timestamptz not null default now(),
  duration_ms bigint not null check (duration_ms >= 0),
  row_count   bigint not null check (row_count >= 0),
  error       text not null default ''
);
-- A caller's own history newest first (everyone's default list); everyone's
-- newest first (auditors), whose oldest end the clean-up deletes.
create index query_history_creator on query_history (creator, create_time desc, id desc);
create index query_history_create_time on query_history (create_time desc, id desc);
