-- Workspace settings (contract §7): one row per SettingName, the payload as
-- protobuf JSON of the svc.store shape. Secrets inside are encrypted.
create table setting (
  name        text primary key,
  value       jsonb not null,
  etag        text not null default md5(random()::text),
  update_time timestamptz not null default now(),
  updater     text
);

-- Every change is announced, so processes that cache settings drop their copy.
create function setting_notify_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('setting_changed', coalesce(new.name, old.name));
  return null;
end $$;

create trigger setting_changed after insert or update or delete on setting
  for each row execute function setting_notify_change();
