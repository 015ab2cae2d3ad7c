// The Groups endpoint of directory sync (contract §5.4, §19.4): search,
// read, create (source SCIM, through the shared createGroup), replace (PUT),
// patch and delete (the shared deleteGroup: refused while an IAM binding
// names the group). A group's id is made from its displayName ("Platform
// DBAs" → platform-dbas, then platform-dbas-2 …), as IAM bindings name it;
// displayName is unique among SCIM groups. Members are users SCIM sees;
// membership acts on each member's next request, since permission checks
// read it from the store every time.
import type { CommonQueryMethods } from "slonik";
import { AuditAction, type CallAudit } from "../../governance/index.ts";
import { membersOf } from "../group/group-member.store.ts";
import { updateGroup as writeGroupFields } from "../group/group.store.ts";
import { groupName } from "../group/group-name.ts";
import { createGroup, deleteGroup } from "../group/groups.ts";
import { userMember } from "../iam/members.ts";
import { notFound, quoted } from "../../platform/index.ts";
import { recordedChange, type ScimCall } from "./scim-audit.ts";
import { invalidValue, mutability, uniqueness } from "./scim-error.ts";
import { scimGroup, scimGroupFields, type ScimGroupFields } from "./scim-group-map.ts";
import {
  addGroupMembers,
  countScimGroups,
  findScimGroup,
  listScimGroups,
  markScimGroup,
  removeGroupMembers,
  scimGroupTitled,
  setGroupExternalId,
  takenGroupIds,
  type ScimGroupRow,
} from "./scim-group.store.ts";
import { canonicalBody, lowerKeys, sameValue, type JsonObject } from "./scim-json.ts";
import { listResponse, project, shows, type ListQuery, type Projection } from "./scim-list.ts";
import { applyPatch, parsePatch } from "./scim-patch.ts";
import { activeScimLoginIds } from "./scim-user.store.ts";

export async function searchScimGroups(db: CommonQueryMethods, query: ListQuery, baseUrl: string): Promise<JsonObject> {
  const total = await countScimGroups(db, query.filter);
  const rows = await listScimGroups(db, query.filter, query.startIndex - 1, query.count);
  const members = shows(query.projection, "members") && rows.length > 0 ? await membersOf(db, rows.map((row) => row.group.id)) : undefined;
  const records = rows.map((row) => ({ ...row, members: members?.get(row.group.id)?.map((m) => m.loginId) }));
  return listResponse(records.map((record) => project(scimGroup(record, baseUrl), query.projection)), total, query.startIndex);
}

export async function getScimGroup(db: CommonQueryMethods, id: string, projection: Projection, baseUrl: string): Promise<JsonObject> {
  const row = await existing(db, id);
  const record = shows(projection, "members") ? await withMembers(db, row) : { ...row, members: undefined };
  return project(scimGroup(record, baseUrl), projection);
}

export function createScimGroup(call: ScimCall, body: unknown): Promise<JsonObject> {
  return recordedChange(call.store, call.request, AuditAction.groupCreate, "", async (audit) => {
    const tx = audit.tx;
    const fields = scimGroupFields(canonicalBody(body));
    await assertTitleFree(tx, fields.title);
    await assertManagedMembers(tx, fields.members);
    const id = await freeGroupId(tx, fields.title);
    audit.resource = groupName(id);
    const members = fields.members.map((loginId) => ({ member: userMember(loginId), role: undefined }));
    await createGroup(tx, id, { title: fields.title, description: "", email: "", require2fa: false, members });
    await markScimGroup(tx, id, fields.externalId);
    audit.detail = { added: fields.members };
    return scimGroup(await withMembers(tx, await existing(tx, id)), call.baseUrl);
  });
}

/** PUT: the body is the whole group, its members included. */
export function replaceScimGroup(call: ScimCall, id: string, body: unknown): Promise<JsonObject> {
  return changeScimGroup(call, id, () => canonicalBody(body));
}

export function patchScimGroup(call: ScimCall, id: string, body: unknown): Promise<JsonObject> {
  return changeScimGroup(call, id, (current) => applyPatch(current, parsePatch(body)));
}

export async function deleteScimGroup(call: ScimCall, id: string): Promise<void> {
  await recordedChange(call.store, call.request, AuditAction.groupDelete, groupName(id), async (audit) => {
    await existing(audit.tx, id, true);
    await deleteGroup(audit.tx, id);
  });
}

/** Applies the resource `desiredOf` makes of the current one (canonical form). */
function changeScimGroup(call: ScimCall, id: string, desiredOf: (current: JsonObject) => JsonObject): Promise<JsonObject> {
  return recordedChange(call.store, call.request, AuditAction.groupUpdate, groupName(id), async (audit) => {
    const current = await withMembers(audit.tx, await existing(audit.tx, id, true));
    const desired = desiredOf(lowerKeys(scimGroup(current, call.baseUrl)) as JsonObject);
    if (desired.id !== undefined && !sameValue(desired.id, id)) throw mutability(`id cannot change (it is "${id}")`);
    await applyGroupFields(audit, current, scimGroupFields(desired));
    return scimGroup(await withMembers(audit.tx, await existing(audit.tx, id)), call.baseUrl);
  });
}

async function applyGroupFields(audit: CallAudit, current: ScimGroupRow & { members: readonly string[] }, fields: ScimGroupFields): Promise<void> {
  const { tx } = audit;
  const { group } = current;
  const [before, after] = [new Set(current.members), new Set(fields.members)];
  const added = fields.members.filter((loginId) => !before.has(loginId));
  const removed = current.members.filter((loginId) => !after.has(loginId));
  const changed = [
    ...(fields.title !== group.title ? ["displayName"] : []),
    ...(fields.externalId !== current.externalId ? ["externalId"] : []),
    ...(added.length + removed.length > 0 ? ["members"] : []),
  ];
  audit.detail = { changed, added, removed };
  if (changed.length === 0) return;
  if (fields.title !== group.title) await assertTitleFree(tx, fields.title, group.id);
  await assertManagedMembers(tx, added);
  await removeGroupMembers(tx, group.id, removed);
  await addGroupMembers(tx, group.id, added);
  if (fields.externalId !== current.externalId) await setGroupExternalId(tx, group.id, fields.externalId);
  // Also for a change of members alone: the group gets a new etag and update time.
  await writeGroupFields(tx, group.id, { title: fields.title, description: group.description, email: group.email, require2fa: group.require2fa });
}

/** The group with the login ids of its members. */
async function withMembers(db: CommonQueryMethods, row: ScimGroupRow): Promise<ScimGroupRow & { members: string[] }> {
  const members = (await membersOf(db, [row.group.id])).get(row.group.id) ?? [];
  return { ...row, members: members.map((m) => m.loginId) };
}

async function existing(db: CommonQueryMethods, id: string, lock = false): Promise<ScimGroupRow> {
  const row = await findScimGroup(db, id, lock);
  if (!row) throw notFound(`no group with id "${id}"`);
  return row;
}

async function assertTitleFree(db: CommonQueryMethods, title: string, exceptId = ""): Promise<void> {
  const clash = await scimGroupTitled(db, title, exceptId);
  if (clash) throw uniqueness(`displayName "${title}" is taken by group "${clash}"`);
}

/** Members a directory adds must be active users it sees (not local accounts or service accounts). */
async function assertManagedMembers(db: CommonQueryMethods, loginIds: readonly string[]): Promise<void> {
  if (loginIds.length === 0) return;
  const known = await activeScimLoginIds(db, loginIds);
  const unknown = loginIds.filter((loginId) => !known.has(loginId));
  if (unknown.length > 0) throw invalidValue(`members: no active user with id ${unknown.map(quoted).join(", ")}`);
}

/** The group id made from a title: lower-case letters, digits and hyphens, numbered when taken. */
async function freeGroupId(db: CommonQueryMethods, title: string): Promise<string> {
  const words = title.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const trimmed = words.replace(/^-+/, "").slice(0, 50).replace(/-+$/, "");
  const base = /^[a-z]/.test(trimmed) ? trimmed : `group${trimmed ? `-${trimmed}` : ""}`;
  const taken = await takenGroupIds(db, base);
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}
