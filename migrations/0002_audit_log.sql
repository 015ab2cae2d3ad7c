-- The audit trail (contract §8): append-only, one row per recorded action,
-- written in the same transaction as the change it describes.
create table audit_log (
  id             bigint generated always as identity primary key,
  create_time    timestamptz not null default clock_timestamp(),
  actor          text not null,
  actor_ip       text not null default '',
  user_agent     text not null default '',
  action         text not null,
  method         text not null default '',
  resource       text not null default '',
  severity       text not null check (severity in ('INFO', 'WARNING', 'ERROR', 'CRITICAL')),
  status_code    text not null default 'ok',
  status_message text not null default '',
  latency_us     bigint not null default 0,
  correlation_id text not null default '',
  request        text not null default '',
  response       text not null default '',
  detail         jsonb not null default '{}'
);

-- Search reads newest first, filtered by the fields clients filter on most.
create index audit_log_time on audit_log (create_time desc, id desc);
create index audit_log_actor on audit_log (actor, create_time desc, id desc);
create index audit_log_action on audit_log (action, create_time desc, id desc);
create index audit_log_resource on audit_log (resource text_pattern_ops);
create index audit_log_correlation on audit_log (correlation_id);

-- Records are never changed or removed, whoever asks.
create function audit_log_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'audit records are append-only' using errcode = 'insufficient_privilege';
end $$;

create trigger audit_log_append_only before update or delete on audit_log
  for each row execute function audit_log_refuse_change();
create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_refuse_change();
