// Writing custom roles (contract §6.3, §18.2): ids are checked and may not
// take a predefined role's id (in any case); every permission must be in the
// catalogue; built-in roles cannot be changed or deleted; a stale etag is
// refused; a role still bound anywhere, or granted by SSO_GROUP_MAPPING,
// cannot be deleted.
import type { CommonQueryMethods } from "slonik";
import { aborted, alreadyExists, failedPrecondition, invalidArgument, maskFields, notFound, quoted } from "../../platform/index.ts";
import { scopesWithBinding } from "./iam-policy.store.ts";
import { unknownPermissions } from "./permissions.ts";
import { approvalRulesNaming, mappingEntriesGranting } from "./role-setting-references.store.ts";
import { predefinedRole, ROLE_ID_PATTERN } from "./predefined-roles.ts";
import { deleteCustomRole as deleteRow, findCustomRole, insertCustomRole, updateCustomRole as updateRow, type CustomRoleRow } from "./role.store.ts";
import { customRoleInfo, roleName, type RoleInfo } from "./roles.ts";

export interface RoleDraft {
  title: string;
  description: string;
  permissions: readonly string[];
}

export interface RoleUpdate extends RoleDraft {
  id: string;
  /** update_mask paths: title, description, permissions. */
  paths: readonly string[];
  /** The etag the writer read; empty writes unconditionally. */
  etag: string;
}

const MASK = { resource: "role", editable: ["title", "description", "permissions"], outputOnly: ["name", "type", "etag"] } as const;

export async function createCustomRole(tx: CommonQueryMethods, creator: string, id: string, draft: RoleDraft): Promise<RoleInfo> {
  if (!ROLE_ID_PATTERN.test(id)) {
    throw invalidArgument(`role_id: ${quoted(id)} is not a valid role id; it starts with a letter and has up to 63 letters, digits and hyphens`);
  }
  const builtIn = predefinedRole(id);
  if (builtIn) throw alreadyExists(`role "${roleName(builtIn.id)}" already exists as a predefined role`);
  const permissions = checkedPermissions(draft.permissions);
  const row = await insertCustomRole(tx, id, { title: draft.title, description: draft.description, permissions }, creator);
  if (!row) throw alreadyExists(`role "${roleName((await findCustomRole(tx, id))?.id ?? id)}" already exists`);
  return customRoleInfo(row);
}

export async function updateCustomRole(tx: CommonQueryMethods, update: RoleUpdate): Promise<RoleInfo> {
  const fields = maskFields(update.paths, MASK);
  const row = await lockCustomRole(tx, update.id);
  if (update.etag && update.etag !== row.etag) {
    throw aborted(`role "${roleName(row.id)}" changed since it was read (etag ${update.etag} is stale); read it again and retry`);
  }
  const updated = await updateRow(tx, row.id, {
    title: fields.has("title") ? update.title : row.title,
    description: fields.has("description") ? update.description : row.description,
    permissions: fields.has("permissions") ? checkedPermissions(update.permissions) : row.permissions,
  });
  return customRoleInfo(updated);
}

/** Deletes the role; returns its stored id. */
export async function deleteCustomRole(tx: CommonQueryMethods, id: string): Promise<string> {
  const row = await lockCustomRole(tx, id);
  const scopes = await scopesWithBinding(tx, { role: roleName(row.id) });
  if (scopes.length > 0) {
    throw failedPrecondition(`role "${roleName(row.id)}" is used by bindings in the IAM policies of ${scopes.join(", ")}; remove those bindings first`);
  }
  const mapped = await mappingEntriesGranting(tx, roleName(row.id));
  if (mapped.length > 0) {
    const entries = mapped.map((m) => `${m.idp} group "${m.group}"`).join(", ");
    throw failedPrecondition(`role "${roleName(row.id)}" is granted by settings/SSO_GROUP_MAPPING (${entries}); remove it from the mapping first`);
  }
  const approvals = await approvalRulesNaming(tx, roleName(row.id));
  if (approvals.length > 0) {
    const rules = approvals.map((a) => `rule ${a.rule}${a.title ? ` "${a.title}"` : ""}`).join(", ");
    throw failedPrecondition(`role "${roleName(row.id)}" approves steps of settings/WORKSPACE_APPROVAL (${rules}); remove it from those steps first`);
  }
  await deleteRow(tx, row.id);
  return row.id;
}

/** The custom role, locked for the change; built-in → failed_precondition, none → not_found. */
async function lockCustomRole(tx: CommonQueryMethods, id: string): Promise<CustomRoleRow> {
  if (predefinedRole(id)) throw failedPrecondition("built-in roles cannot be changed");
  const row = await findCustomRole(tx, id, true);
  if (!row) throw notFound(`role "${roleName(id)}" does not exist`);
  return row;
}

/** The permissions, once each and sorted; unknown ones → invalid_argument listing all of them. */
function checkedPermissions(permissions: readonly string[]): string[] {
  const unknown = unknownPermissions(permissions);
  if (unknown.length > 0) {
    const list = unknown.map((p) => JSON.stringify(p)).join(", ");
    throw invalidArgument(`role.permissions: unknown permissions ${list}; permissions are catalogue entries of the form bb.<resource>.<verb>, e.g. bb.issues.get`);
  }
  return [...new Set(permissions)].sort();
}
