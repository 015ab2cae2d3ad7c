// Permission checks (contract §6.4): the caller's workspace bindings, plus
// the project's bindings for a project-scoped resource; expired bindings are
// dropped. Decisions are computed per request from the current store, so a
// policy change acts on the next request.
import type { CommonQueryMethods } from "slonik";
import { permissionDenied, type DomainError } from "../platform/errors.ts";
import { isBindingActive } from "./binding-condition.ts";
import { findPolicies, type StoredPolicy } from "./iam-policy.store.ts";
import { memberIncludes, type IamSubject } from "./members.ts";
import { isPermission, permissionScope, type Permission } from "./permissions.ts";
import { predefinedRole } from "./predefined-roles.ts";
import { ADMIN_ROLE } from "./workspace-admins.ts";

export const WORKSPACE = "workspaces/-";

const PROJECT_OF = /^projects\/([^/]+)/;
const ROLE_PREFIX = "roles/";

/** The policy scope a permission is checked at for a resource name. */
export function checkScope(permission: Permission, resourceName: string): string {
  if (permissionScope(permission) === "workspace") return WORKSPACE;
  const project = PROJECT_OF.exec(resourceName)?.[1];
  return project ? `projects/${project}` : WORKSPACE;
}

/** The role names bound to the subject at the scope (workspace bindings count everywhere). */
export async function boundRoles(db: CommonQueryMethods, subject: IamSubject, scope: string, now = new Date()): Promise<Set<string>> {
  const scopes = scope === WORKSPACE ? [WORKSPACE] : [WORKSPACE, scope];
  return rolesIn(await findPolicies(db, scopes), subject, now);
}

export async function hasPermission(db: CommonQueryMethods, subject: IamSubject, permission: string, scope: string): Promise<boolean> {
  if (!isPermission(permission)) return false;
  for (const role of await boundRoles(db, subject, scope)) {
    if (rolePermissions(role)?.has(permission)) return true;
  }
  return false;
}

/** The refusal of a missing permission, naming it and the scope (contract §1.3). */
export function permissionRequired(permission: string, scope: string): DomainError {
  return permissionDenied(`permission ${permission} required on ${scope}`);
}

/** Throws permission_denied unless the subject holds the permission at the scope. */
export async function requirePermission(db: CommonQueryMethods, subject: IamSubject, permission: Permission, scope: string): Promise<void> {
  if (!(await hasPermission(db, subject, permission, scope))) throw permissionRequired(permission, scope);
}

export async function isWorkspaceAdmin(db: CommonQueryMethods, subject: IamSubject): Promise<boolean> {
  return (await boundRoles(db, subject, WORKSPACE)).has(ADMIN_ROLE);
}

function rolesIn(policies: readonly StoredPolicy[], subject: IamSubject, now: Date): Set<string> {
  const roles = new Set<string>();
  for (const policy of policies) {
    for (const binding of policy.bindings) {
      if (isBindingActive(binding.condition, now) && binding.members.some((m) => memberIncludes(m, subject))) roles.add(binding.role);
    }
  }
  return roles;
}

function rolePermissions(roleName: string): ReadonlySet<Permission> | undefined {
  if (!roleName.startsWith(ROLE_PREFIX)) return undefined;
  return predefinedRole(roleName.slice(ROLE_PREFIX.length))?.permissions;
}
