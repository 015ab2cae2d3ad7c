-- TOTP second factor (contract §4.2, §5.1): secrets sealed under the
-- operator's key, single-use recovery codes, and the temp tokens between the
-- two sign-in steps.

-- The enabled secret (null: no second factor), the pending one between
-- regenerate_temp_mfa_secret and its confirmation, both sealed; and the last
-- accepted TOTP time step, so that a code used once is refused afterwards.
alter table principal
  add column mfa_secret text,
  add column mfa_temp_secret text,
  add column mfa_last_time_step bigint;

-- Recovery codes of the enabled factor, stored as SHA-256 hashes; a code is
-- spent by setting used_time, once.
create table mfa_recovery_code (
  principal_id bigint not null references principal (id),
  code_hash    bytea not null,
  used_time    timestamptz,
  primary key (principal_id, code_hash)
);

-- Between the password step and the second factor: opaque tokens stored as
-- SHA-256 hashes, valid 5 minutes, deleted when used or after 5 wrong factors.
create table mfa_temp_token (
  token_hash    bytea primary key,
  principal_id  bigint not null references principal (id),
  expire_time   timestamptz not null,
  failure_count integer not null default 0,
  create_time   timestamptz not null default now()
);
create index mfa_temp_token_principal on mfa_temp_token (principal_id);

-- A sign-in of a user who must enrol a second factor (require_2fa) is limited
-- to enrolment until it completes (§5.1); the flag follows the family.
alter table session_token
  add column pending_mfa_enrollment boolean not null default false;
