// Permission checks (contract §6.4): the caller's workspace bindings, plus
// the project's bindings for a project-scoped resource; expired bindings are
// dropped and group members expanded. Decisions are computed per request from
// the current policies, group membership and custom roles (IamReads: the
// transaction's, or the access cache's, which a change notice refreshes), so
// a change acts on the next request.
import { type DomainError, notFound, permissionDenied } from "../../platform/index.ts";
import { isBindingActive } from "./binding-condition.ts";
import type { StoredPolicy } from "./iam-policy.store.ts";
import type { IamReads } from "./iam-reads.ts";
import { memberIncludes, namesGroup, type IamSubject, type MemberSubject } from "./members.ts";
import { isPermission, permissionScope, type Permission } from "./permissions.ts";
import { rolePermissions } from "./roles.ts";
import { ADMIN_ROLE } from "./workspace-admins.ts";

export const WORKSPACE = "workspaces/-";

/** The role names bound to the subject at the scope (workspace bindings count everywhere). */
export async function boundRoles(iam: IamReads, subject: IamSubject, scope: string, now = new Date()): Promise<Set<string>> {
  const scopes = scope === WORKSPACE ? [WORKSPACE] : [WORKSPACE, scope];
  const policies = await iam.policies(scopes);
  return rolesIn(policies, await withGroups(iam, subject, policies), now);
}

/**
 * Whether a role bound to the subject grants the permission. A workspace-scope
 * permission is decided by the workspace bindings alone, whatever scope the
 * caller names, so a project binding grants only the project-scope
 * permissions of its role (contract §15.9).
 */
export async function hasPermission(iam: IamReads, subject: IamSubject, permission: string, scope: string): Promise<boolean> {
  if (!isPermission(permission)) return false;
  const roles = await boundRoles(iam, subject, permissionScope(permission) === "workspace" ? WORKSPACE : scope);
  for (const permissions of (await rolePermissions(iam, roles)).values()) {
    if (permissions.has(permission)) return true;
  }
  return false;
}

/** The refusal of a missing permission, naming it and the scope (contract §1.3). */
export function permissionRequired(permission: string, scope: string): DomainError {
  return permissionDenied(`permission ${permission} required on ${scope}`);
}

export interface AccessDecision {
  allowed: boolean;
  /**
   * Refused inside a project the subject cannot see at all (no
   * bb.projects.get there): reported as not_found, so that the caller learns
   * nothing about what the project holds (contract §18.4).
   */
  hidden: boolean;
}

const VISIBILITY: Permission = "bb.projects.get";

export async function decideAccess(iam: IamReads, subject: IamSubject, permission: string, scope: string): Promise<AccessDecision> {
  if (await hasPermission(iam, subject, permission, scope)) return { allowed: true, hidden: false };
  const hidden = scope !== WORKSPACE && (permission === VISIBILITY || !(await hasPermission(iam, subject, VISIBILITY, scope)));
  return { allowed: false, hidden };
}

/** The refusal of a resource in a project the caller cannot see. */
export function hiddenScope(scope: string): DomainError {
  return notFound(`${scope} does not exist`);
}

/** Throws permission_denied (not_found in a project it cannot see) unless the subject holds the permission at the scope. */
export async function requirePermission(iam: IamReads, subject: IamSubject, permission: Permission, scope: string): Promise<void> {
  const decision = await decideAccess(iam, subject, permission, scope);
  if (decision.hidden) throw hiddenScope(scope);
  if (!decision.allowed) throw permissionRequired(permission, scope);
}

/** The ids of the projects where the subject has an active binding (any role). */
export async function projectsWithBinding(iam: IamReads, subject: IamSubject, now = new Date()): Promise<string[]> {
  const policies = await iam.projectPolicies();
  const member = await withGroups(iam, subject, policies);
  return policies.filter((policy) => rolesIn([policy], member, now).size > 0).map((policy) => policy.scope.slice("projects/".length));
}

export async function isWorkspaceAdmin(iam: IamReads, subject: IamSubject): Promise<boolean> {
  return (await boundRoles(iam, subject, WORKSPACE)).has(ADMIN_ROLE);
}

/** The subject with its groups, read only when one of the policies names a group. */
async function withGroups(iam: IamReads, subject: IamSubject, policies: readonly StoredPolicy[]): Promise<MemberSubject> {
  const needed = policies.some((p) => p.bindings.some((b) => namesGroup(b.members)));
  return { loginId: subject.loginId, groupIds: new Set(needed ? await iam.groupIds(subject.loginId) : []) };
}

function rolesIn(policies: readonly StoredPolicy[], subject: MemberSubject, now: Date): Set<string> {
  const roles = new Set<string>();
  for (const policy of policies) {
    for (const binding of policy.bindings) {
      if (isBindingActive(binding.condition, now) && binding.members.some((m) => memberIncludes(m, subject))) roles.add(binding.role);
    }
  }
  return roles;
}
