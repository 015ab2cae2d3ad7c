// The Users endpoint of directory sync (contract §5.4, §19.4): search, read,
// create (source SCIM, a workspace member like every new user, through the
// shared addUser), replace (PUT), patch and delete. Deactivation — active
// false, or DELETE — is DeleteUser's soft delete: every session of the user
// ends at once and it can no longer sign in; active true undoes it. The
// login id never changes, so a new userName is refused (mutability).
import { AuditAction, type CallAudit, SCIM_ACTOR } from "../../governance/index.ts";
import { normalizeLoginId, notFound, userName } from "../../platform/index.ts";
import type { CommonQueryMethods } from "slonik";
import { addUser } from "../user/new-user.ts";
import { writeUserProfile } from "../user/user-profile.ts";
import { findUserByLoginId } from "../user/user.store.ts";
import { deleteUser, undeleteUser } from "../user/user-state.ts";
import { recordedChange, type ScimCall } from "./scim-audit.ts";
import { mutability, uniqueness } from "./scim-error.ts";
import { canonicalBody, lowerKeys, sameValue, type JsonObject } from "./scim-json.ts";
import { listResponse, project, type ListQuery, type Projection } from "./scim-list.ts";
import { applyPatch, parsePatch } from "./scim-patch.ts";
import { scimUser, scimUserFields, type ScimUserFields, type ScimUserRecord } from "./scim-user-map.ts";
import { countScimUsers, findScimUser, listScimUsers, setUserExternalId } from "./scim-user.store.ts";

export async function searchScimUsers(db: CommonQueryMethods, query: ListQuery, baseUrl: string): Promise<JsonObject> {
  const total = await countScimUsers(db, query.filter);
  const records = await listScimUsers(db, query.filter, query.startIndex - 1, query.count);
  return listResponse(records.map((record) => project(scimUser(record, baseUrl), query.projection)), total, query.startIndex);
}

export async function getScimUser(db: CommonQueryMethods, id: string, projection: Projection, baseUrl: string): Promise<JsonObject> {
  return project(scimUser(await existing(db, id), baseUrl), projection);
}

export function createScimUser(call: ScimCall, body: unknown): Promise<JsonObject> {
  return recordedChange(call.store, call.request, AuditAction.userCreate, "", async (audit) => {
    const fields = scimUserFields(canonicalBody(body));
    audit.resource = userName(fields.loginId);
    const taken = await findUserByLoginId(audit.tx, fields.loginId);
    if (taken) throw uniqueness(takenMessage(fields.loginId, taken.source === "LOCAL" || taken.type !== "END_USER"));
    const user = await addUser(audit, {
      user: { loginId: fields.loginId, email: fields.email, title: fields.title, type: "END_USER", source: "SCIM", passwordHash: null, requireResetPassword: false },
      roles: [],
      maximumRoleExpirationMs: undefined, // no role with an expiry is granted
      grantedBy: SCIM_ACTOR,
    });
    if (!user) throw uniqueness(takenMessage(fields.loginId, false));
    if (fields.externalId) await setUserExternalId(audit.tx, user.id, fields.externalId);
    if (fields.active === false) await deleteUser(audit.tx, user.loginId);
    return scimUser(await existing(audit.tx, user.loginId), call.baseUrl);
  });
}

/** PUT: the body is the whole user; active left out keeps the state. */
export function replaceScimUser(call: ScimCall, id: string, body: unknown): Promise<JsonObject> {
  return changeScimUser(call, id, () => canonicalBody(body));
}

export function patchScimUser(call: ScimCall, id: string, body: unknown): Promise<JsonObject> {
  return changeScimUser(call, id, (current) => applyPatch(current, parsePatch(body)));
}

/** DELETE: deactivates (the user stays, shown with active false, as deleted users are kept). */
export async function deleteScimUser(call: ScimCall, id: string): Promise<void> {
  await recordedChange(call.store, call.request, AuditAction.userDelete, userName(id), async (audit) => {
    const record = await existing(audit.tx, id, true);
    audit.resource = userName(record.user.loginId);
    audit.detail = { changed: record.user.state === "ACTIVE" ? ["active"] : [] };
    await deleteUser(audit.tx, record.user.loginId);
  });
}

/** Applies the resource `desiredOf` makes of the current one (canonical form). */
function changeScimUser(call: ScimCall, id: string, desiredOf: (current: JsonObject) => JsonObject): Promise<JsonObject> {
  return recordedChange(call.store, call.request, AuditAction.userUpdate, userName(id), async (audit) => {
    const record = await existing(audit.tx, id, true);
    const { loginId } = record.user;
    audit.resource = userName(loginId);
    const desired = desiredOf(lowerKeys(scimUser(record, call.baseUrl)) as JsonObject);
    if (desired.id !== undefined && !sameValue(desired.id, loginId)) throw mutability(`id cannot change (it is "${loginId}")`);
    const fields = scimUserFields(desired);
    if (fields.loginId !== loginId) throw mutability(`userName is the login id, which cannot change (it is "${loginId}")`);
    audit.detail = { changed: await applyUserFields(audit, record, fields) };
    return scimUser(await existing(audit.tx, loginId), call.baseUrl);
  });
}

/** Writes what differs and answers the names of the attributes it changed. */
async function applyUserFields(audit: CallAudit, { user, externalId }: ScimUserRecord, fields: ScimUserFields): Promise<string[]> {
  const changed: string[] = [];
  if (fields.title !== user.title) changed.push("displayName");
  if (fields.email !== user.email) changed.push("emails");
  if (changed.length > 0) await writeUserProfile(audit.tx, user, { title: fields.title, email: fields.email });
  if (fields.externalId !== externalId) {
    await setUserExternalId(audit.tx, user.id, fields.externalId);
    changed.push("externalId");
  }
  if (fields.active !== undefined && fields.active !== (user.state === "ACTIVE")) {
    audit.action = fields.active ? AuditAction.userUndelete : AuditAction.userDelete;
    if (fields.active) await undeleteUser(audit.tx, user.loginId);
    else await deleteUser(audit.tx, user.loginId);
    changed.push("active");
  }
  return changed;
}

async function existing(db: CommonQueryMethods, id: string, lock = false): Promise<ScimUserRecord> {
  const record = await findScimUser(db, normalizeLoginId(id) ?? "", lock);
  if (!record) throw notFound(`no user with id "${id}"`);
  return record;
}

function takenMessage(loginId: string, unmanaged: boolean): string {
  if (!unmanaged) return `userName "${loginId}" is taken by an existing user`;
  return `userName "${loginId}" is taken by a local account or a service account, which directory sync does not manage; an administrator may delete it first`;
}
