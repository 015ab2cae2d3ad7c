-- The notification delivery log (contract §16.1): one row per event and
-- target, written with its notify.deliver job in the transaction of the
-- change that caused the event; each attempt of the worker updates it.
-- `target` is what the log shows (a webhook URL without credentials or
-- query); `address` is where the worker sends and never leaves the store.
create table notification_delivery (
  id          bigint generated always as identity primary key,
  delivery_id uuid not null unique default gen_random_uuid(),
  channel     text not null,
  event       text not null,
  target      text not null,
  address     text not null,
  payload     jsonb not null,
  event_time  timestamptz not null,
  status      text not null default 'PENDING' check (status in ('PENDING', 'SENT', 'FAILED')),
  attempts    integer not null default 0 check (attempts >= 0),
  last_error  text not null default '',
  -- clock_timestamp: the deliveries of one transaction keep distinct page keys.
  create_time timestamptz not null default clock_timestamp(),
  sent_time   timestamptz,
  -- While an attempt runs, no other worker starts one (a lease that a dead worker lets lapse).
  lease_until timestamptz
);
create index notification_delivery_create_time on notification_delivery (create_time desc, id desc);
