-- Change notices for the processes' access caches (sessions and IAM, read on
-- every request): each names what a reader must read again, and is sent at
-- commit by the writing transaction.

-- A session family revoked, its second-factor enrolment limit lifted, or
-- made less alive by a write the service never makes itself (an expiry
-- brought forward, a last use set back).
create function session_token_notify_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('access_changed', 'family:' || new.family_id);
  return null;
end $$;

create trigger session_token_access_changed
  after update of revoked_time, pending_mfa_enrollment, expire_time, last_used_time on session_token
  for each row
  when (old.revoked_time is distinct from new.revoked_time or old.pending_mfa_enrollment is distinct from new.pending_mfa_enrollment
        or new.expire_time < old.expire_time or new.last_used_time < old.last_used_time)
  execute function session_token_notify_change();

-- A principal deleted or restored, renamed, given a new password or told to
-- change it, or signed in (whether the first administrator is still pending).
create function principal_notify_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('access_changed', 'principal:' || new.id);
  return null;
end $$;

create trigger principal_access_changed after update of state, login_id, require_reset_password, password_change_time, last_login_time on principal
  for each row
  when (old.state is distinct from new.state or old.login_id is distinct from new.login_id
        or old.require_reset_password is distinct from new.require_reset_password
        or old.password_change_time is distinct from new.password_change_time
        or old.last_login_time is distinct from new.last_login_time)
  execute function principal_notify_change();

-- Any write of policies, group membership or custom roles: IAM is read again whole.
create function iam_notify_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('access_changed', 'iam');
  return null;
end $$;

create trigger iam_policy_access_changed after insert or update or delete or truncate on iam_policy
  for each statement execute function iam_notify_change();
create trigger group_member_access_changed after insert or update or delete or truncate on group_member
  for each statement execute function iam_notify_change();
create trigger custom_role_access_changed after insert or update or delete or truncate on custom_role
  for each statement execute function iam_notify_change();
