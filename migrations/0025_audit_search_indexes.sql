-- Search plans for the filters clients combine most, newest first without a
-- sort (docs/decisions/0077): an actor's records of one action, and a
-- resource prefix that is a whole first resource and its slash (projects/p1/), read
-- through the resource's root, its first two path segments.
create function audit_resource_root(resource text) returns text
  language sql immutable parallel safe
  as $$ select substring(resource from '^[^/]*/[^/]*') $$;

create index audit_log_actor_action on audit_log (actor, action, create_time desc, id desc);
create index audit_log_resource_root on audit_log (audit_resource_root(resource), create_time desc, id desc);
