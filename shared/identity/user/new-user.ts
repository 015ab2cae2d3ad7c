// Adding a user, by CreateUser or by a first sign-in through an identity
// provider (contract §5.1, §4.8, §18.4): the principal row, its binding to
// roles/workspaceMember (plus any roles given) at workspace scope, and the
// records bb.users.create and bb.role.assign. The user's address is held to
// the workspace's domains first (identity-domain.ts). A login id taken
// meanwhile by a concurrent creation answers undefined instead of failing the
// call.
import { AuditAction, type CallAudit } from "../../governance/index.ts";
import { userName } from "../../platform/index.ts";
import { WORKSPACE } from "../iam/authorize.ts";
import { grantRoles, type RoleGrant } from "../iam/grant-roles.ts";
import { userMember } from "../iam/members.ts";
import { MEMBER_ROLE } from "../iam/workspace-admins.ts";
import { checkUserDomain } from "./identity-domain.ts";
import { insertUser, type NewUser, type UserRow } from "./user.store.ts";

export interface UserCreation {
  user: NewUser;
  /** Workspace roles besides workspaceMember, which every new user gets. */
  roles: readonly RoleGrant[];
  maximumRoleExpirationMs: number | undefined;
  /** Who grants the roles (users/<login id>). */
  grantedBy: string;
  /** Detail of the bb.users.create record. */
  detail?: Record<string, unknown>;
}

/**
 * The new user, or undefined when the login id is taken. The call's own
 * record is bb.users.create when the call is CreateUser; any other call (a
 * sign-in) gets a bb.users.create record of its own.
 */
export async function addUser(audit: CallAudit, creation: UserCreation): Promise<UserRow | undefined> {
  await checkUserDomain(audit.tx, creation.user);
  const user = await insertUser(audit.tx, creation.user);
  if (!user) return undefined;
  const name = userName(user.loginId);
  if (audit.action === AuditAction.userCreate) audit.resource = name;
  else audit.extra.push({ action: AuditAction.userCreate, resource: name, detail: creation.detail ?? {} });
  const grants = [{ role: MEMBER_ROLE }, ...creation.roles.filter((grant) => grant.role !== MEMBER_ROLE)];
  await grantRoles(audit, WORKSPACE, userMember(user.loginId), grants, creation.maximumRoleExpirationMs, creation.grantedBy);
  return user;
}
