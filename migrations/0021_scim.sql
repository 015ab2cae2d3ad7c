-- Directory sync (SCIM 2.0, contract §5.4, §19.4): users it provisions carry
-- source SCIM, and users and groups keep the id the directory knows them by
-- (SCIM externalId; '' when none), which directories may search by.
alter table principal drop constraint principal_source_check;
alter table principal add constraint principal_source_check check (source in ('LOCAL', 'OIDC', 'SAML', 'SCIM'));

alter table principal add column external_id text not null default '';
alter table user_group add column external_id text not null default '';
create index principal_external_id on principal (external_id) where external_id <> '';
create index user_group_external_id on user_group (external_id) where external_id <> '';
