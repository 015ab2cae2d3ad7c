-- Service accounts sign in with a long-lived API key, stored as its SHA-256
-- hash, with an optional expiry (contract §4.3, §5.1).
alter table principal
  add column service_key_hash bytea unique,
  add column service_key_expire_time timestamptz;
