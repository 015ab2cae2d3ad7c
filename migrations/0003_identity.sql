-- Principals, sessions, sign-in failures and request counters (contract §4, §5).

-- Users and service accounts. Login ids are stored lower-case (§0.3).
create table principal (
  id                     bigint generated always as identity primary key,
  login_id               text not null unique check (login_id = lower(login_id)),
  email                  text not null default '',
  title                  text not null default '',
  type                   text not null default 'END_USER' check (type in ('END_USER', 'SERVICE_ACCOUNT')),
  state                  text not null default 'ACTIVE' check (state in ('ACTIVE', 'DELETED')),
  source                 text not null default 'LOCAL' check (source in ('LOCAL', 'OIDC', 'SAML')),
  -- argon2id PHC string; null when the principal cannot sign in with a password.
  password_hash          text,
  password_change_time   timestamptz,
  require_reset_password boolean not null default false,
  create_time            timestamptz not null default now(),
  update_time            timestamptz not null default now(),
  last_login_time        timestamptz
);

-- Opaque tokens, stored only as SHA-256 hashes. A family is one sign-in:
-- its access and refresh tokens, rotated together and revoked together.
create table session_token (
  token_hash      bytea primary key,
  family_id       uuid not null,
  principal_id    bigint not null references principal (id),
  kind            text not null check (kind in ('ACCESS', 'REFRESH')),
  create_time     timestamptz not null default now(),
  expire_time     timestamptz not null,
  last_used_time  timestamptz not null default now(),
  -- A refresh token is spent once it has been exchanged.
  spent_time      timestamptz,
  revoked_time    timestamptz,
  client_ip       text not null default '',
  user_agent      text not null default ''
);
create index session_token_family on session_token (family_id);
create index session_token_principal on session_token (principal_id) where revoked_time is null;
create index session_token_expiry on session_token (expire_time);
create index session_token_last_used on session_token (last_used_time);

-- Consecutive sign-in failures per login id, whether or not it exists (§4.4).
create table login_failure (
  login_id      text primary key,
  failure_count integer not null default 0,
  locked_until  timestamptz,
  update_time   timestamptz not null default now()
);

-- Sliding-window request counters shared by every replica (§4.5, §15.6).
create table rate_limit_hit (
  bucket   text not null,
  key      text not null,
  hit_time timestamptz not null default clock_timestamp()
);
create index rate_limit_hit_key on rate_limit_hit (bucket, key, hit_time);
