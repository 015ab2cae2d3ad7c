// The custom roles and groups a binding set names (contract §6.4), read in
// one query each and share-locked until the writing transaction ends, so a
// DeleteRole or DeleteGroup cannot remove them while the write is checked.
import type { CommonQueryMethods } from "slonik";
import { shareLockGroups } from "../group/group.store.ts";
import { memberGroupId } from "./members.ts";
import { predefinedRole } from "./predefined-roles.ts";
import { shareLockCustomRoles } from "./role.store.ts";
import { ROLE_PREFIX } from "./roles.ts";

export interface BindingReferences {
  /** Stored ids of the named custom roles, by lower-case id. */
  customRoles: ReadonlyMap<string, string>;
  /** Ids of the named groups that exist. */
  groups: ReadonlySet<string>;
}

export async function lockReferences(db: CommonQueryMethods, roles: readonly string[], members: readonly string[]): Promise<BindingReferences> {
  const roleIds = roles.filter((r) => r.startsWith(ROLE_PREFIX)).map((r) => r.slice(ROLE_PREFIX.length)).filter((id) => !predefinedRole(id));
  const groupIds = members.map(memberGroupId).filter((id): id is string => id !== undefined);
  return {
    customRoles: roleIds.length === 0 ? new Map() : await shareLockCustomRoles(db, roleIds),
    groups: groupIds.length === 0 ? new Set() : await shareLockGroups(db, groupIds),
  };
}
