-- Workspace settings (contract §7): one row per SettingName, the payload as
-- protobuf JSON of the svc.store shape. Secrets inside are encrypted.
create table setting (
  name        text primary key,
  value       jsonb not null,
  etag        text not null default md5(random()::text),
  update_time timestamptz not null default now(),
  updater     text
);
