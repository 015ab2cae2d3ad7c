-- Project webhooks (contract §19.3): where a project's events go besides the
-- workspace's channels. `url` and `secret` are sealed (an incoming-webhook
-- URL is itself a credential); `url_shown` is what reads return instead.
create table project_webhook (
  id          bigint generated always as identity primary key,
  project_id  text not null references project (id) on delete cascade,
  title       text not null,
  type        text not null check (type in ('SLACK', 'DISCORD', 'TEAMS', 'DINGTALK', 'FEISHU', 'LARK', 'WECOM', 'TELEGRAM', 'GENERIC')),
  url         text not null,
  url_shown   text not null,
  -- null: none.
  secret      text,
  -- Empty: every event of the project.
  events      text[] not null default '{}',
  creator     text not null,
  etag        text not null default md5(random()::text || clock_timestamp()::text),
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now()
);
create index project_webhook_project on project_webhook (project_id, id);
