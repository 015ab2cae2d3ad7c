// Roles by name, predefined (contract §6.2) or custom (§6.3): parsing
// roles/<id>, reading one role, and the permissions of the roles one check
// meets, resolved on every request (custom roles through IamReads).
import type { CommonQueryMethods } from "slonik";
import { invalidArgument, notFound, quoted } from "../../platform/index.ts";
import type { IamReads } from "./iam-reads.ts";
import { isPermission, type Permission } from "./permissions.ts";
import { predefinedRole, ROLE_ID_PATTERN, type PredefinedRole } from "./predefined-roles.ts";
import { findCustomRole, type CustomRoleRow } from "./role.store.ts";

export const ROLE_PREFIX = "roles/";

/** A role as clients see it, whichever kind it is. */
export interface RoleInfo {
  id: string;
  title: string;
  description: string;
  permissions: readonly string[];
  type: "BUILT_IN" | "CUSTOM";
  /** Empty for predefined roles, which never change. */
  etag: string;
}

export function roleName(id: string): string {
  return `${ROLE_PREFIX}${id}`;
}

/** False for a predefined role that never counts as an approver (§6.2); custom roles may approve. */
export function mayApprove(roleName: string): boolean {
  return predefinedRole(roleName.slice(ROLE_PREFIX.length))?.canApprove !== false;
}

/** The id of a well-formed roles/<id>; anything else → invalid_argument naming the field. */
export function parseRoleName(name: string, field: string): string {
  const id = name.startsWith(ROLE_PREFIX) ? name.slice(ROLE_PREFIX.length) : "";
  if (!ROLE_ID_PATTERN.test(id)) throw invalidArgument(`${field}: ${quoted(name)} is not a role name; use roles/<role_id>`);
  return id;
}

export function builtInRoleInfo(role: PredefinedRole): RoleInfo {
  const { id, title, description } = role;
  return { id, title, description, permissions: [...role.permissions].sort(), type: "BUILT_IN", etag: "" };
}

export function customRoleInfo(row: CustomRoleRow): RoleInfo {
  const { id, title, description, permissions, etag } = row;
  return { id, title, description, permissions, type: "CUSTOM", etag };
}

/** The role with this id (any case); not_found when there is none. */
export async function getRole(db: CommonQueryMethods, id: string): Promise<RoleInfo> {
  const builtIn = predefinedRole(id);
  if (builtIn) return builtInRoleInfo(builtIn);
  const custom = await findCustomRole(db, id);
  if (!custom) throw notFound(`role "${roleName(id)}" does not exist`);
  return customRoleInfo(custom);
}

/**
 * The catalogue permissions of each bound role name; names of roles that no
 * longer exist map to nothing. Custom roles are read in one query. A stored
 * permission that has left the catalogue grants nothing.
 */
export async function rolePermissions(iam: IamReads, names: Iterable<string>): Promise<Map<string, ReadonlySet<Permission>>> {
  const resolved = new Map<string, ReadonlySet<Permission>>();
  const customIds: string[] = [];
  for (const name of names) {
    if (!name.startsWith(ROLE_PREFIX)) continue;
    const id = name.slice(ROLE_PREFIX.length);
    const builtIn = predefinedRole(id);
    if (builtIn) resolved.set(name, builtIn.permissions);
    else customIds.push(id);
  }
  if (customIds.length === 0) return resolved;
  for (const [id, permissions] of await iam.customRolePermissions(customIds)) {
    resolved.set(roleName(id), new Set(permissions.filter(isPermission)));
  }
  return resolved;
}
