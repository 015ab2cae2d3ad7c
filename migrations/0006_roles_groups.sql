-- Custom roles (contract §6.3) and groups of users (§5.2).

-- Roles a workspace defines beside the predefined ones. Ids keep the case
-- their creator wrote but compare case-insensitively (§0.3), so two roles can
-- never differ by case alone; bindings name them as roles/<id>.
create table custom_role (
  id          text primary key check (id ~ '^[a-zA-Z][a-zA-Z0-9-]{0,62}$'),
  title       text not null default '',
  description text not null default '',
  permissions text[] not null default '{}',
  etag        text not null default md5(random()::text || clock_timestamp()::text),
  creator     text not null default '',
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now()
);
create unique index custom_role_folded_id on custom_role (lower(id));

-- Groups; bindings name them as group:<id>.
create table user_group (
  id          text primary key check (id ~ '^[a-z][a-z0-9-]{0,62}$'),
  title       text not null default '',
  description text not null default '',
  email       text not null default '',
  require_2fa boolean not null default false,
  source      text not null default 'LOCAL' check (source in ('LOCAL', 'SCIM')),
  etag        text not null default md5(random()::text || clock_timestamp()::text),
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now()
);

-- One row per (group, user). Permission checks look up a user's groups on
-- every request that meets a group binding: group_member_login serves them.
create table group_member (
  group_id text not null references user_group (id) on delete cascade,
  login_id text not null references principal (login_id),
  role     text not null default 'MEMBER' check (role in ('OWNER', 'MEMBER')),
  primary key (group_id, login_id)
);
create index group_member_login on group_member (login_id, group_id);
