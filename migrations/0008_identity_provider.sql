-- Identity providers and single sign-on (contract §4.8): the providers, the
-- state of sign-ins under way, and the SAML assertions already accepted.

-- One OIDC or SAML provider. `config` holds the provider's settings as JSON;
-- its credentials (OIDC client secret, SAML SP private key) are sealed under
-- the operator's key (§9.4) and never leave the server.
create table identity_provider (
  id          text primary key check (id ~ '^[a-z][a-z0-9-]{0,62}$'),
  title       text not null,
  type        text not null check (type in ('OIDC', 'SAML')),
  domain      text not null default '',
  config      jsonb not null,
  creator     text not null default '',
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now(),
  etag        text not null default md5(random()::text || clock_timestamp()::text)
);

-- A sign-in between StartSso and the provider's answer, keyed by its `state`
-- (OIDC) or RelayState (SAML). Valid 10 minutes and spent on first use: the
-- nonce and PKCE verifier (OIDC) or the AuthnRequest id (SAML) the answer must
-- match, and the same-origin path to return to.
create table sso_login_state (
  state         text primary key,
  idp_id        text not null references identity_provider (id) on delete cascade,
  nonce         text not null default '',
  code_verifier text not null default '',
  request_id    text not null default '',
  redirect      text not null,
  create_time   timestamptz not null default now(),
  expire_time   timestamptz not null
);
create index sso_login_state_expiry on sso_login_state (expire_time);

-- SAML assertion ids already accepted, kept until the assertion expires, so
-- that a replayed assertion is refused.
create table saml_assertion_seen (
  idp_id       text not null references identity_provider (id) on delete cascade,
  assertion_id text not null,
  expire_time  timestamptz not null,
  primary key (idp_id, assertion_id)
);
create index saml_assertion_seen_expiry on saml_assertion_seen (expire_time);
