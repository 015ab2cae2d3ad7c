-- Sign-in codes and password-reset links sent by e-mail (contract §4.2, §5.3).
-- Only SHA-256 hashes are stored, never the code or the token itself.

-- The current sign-in code of a user: one per user (a new code replaces the
-- previous one), 6 digits hashed with the principal id, valid 10 minutes,
-- deleted when used or after 5 wrong tries.
create table email_signin_code (
  principal_id  bigint primary key references principal (id),
  code_hash     bytea not null,
  expire_time   timestamptz not null,
  failure_count integer not null default 0,
  create_time   timestamptz not null default now()
);

-- Password-reset links of local users: an opaque token (256 random bits)
-- valid 30 minutes, spent by setting used_time, once. A new link replaces the
-- user's earlier ones; a reset spends every unused one.
create table password_reset_token (
  token_hash   bytea primary key,
  principal_id bigint not null references principal (id),
  expire_time  timestamptz not null,
  used_time    timestamptz,
  create_time  timestamptz not null default now()
);
create index password_reset_token_principal on password_reset_token (principal_id);

-- Both are requested by e-mail address.
create index principal_email on principal (email) where email <> '';
