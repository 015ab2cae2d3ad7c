// Groups of users (contract §5.2): reading, creating, updating (bb.groups.update
// or an OWNER of the group) and deleting (refused while a binding names the
// group). Membership acts on the members' next request, since permission
// checks read it from the store each time. A group e-mail written is held to
// the workspace's domains while they are enforced (user/identity-domain.ts).
import type { CommonQueryMethods } from "slonik";
import { requirePermission, WORKSPACE } from "../iam/authorize.ts";
import { storedIam } from "../iam/iam-reads.ts";
import { scopesWithBinding } from "../iam/iam-policy.store.ts";
import { groupMember, type IamSubject } from "../iam/members.ts";
import {
  aborted,
  alreadyExists,
  failedPrecondition,
  invalidArgument,
  maskFields,
  notFound,
  parseEmail,
  quoted,
  RESOURCE_ID_PATTERN,
} from "../../platform/index.ts";
import { checkGroupDomain } from "../user/identity-domain.ts";
import { groupName } from "./group-name.ts";
import { membersOf, replaceMembers, type GroupMembership } from "./group-member.store.ts";
import { checkedMembers, type MemberInput } from "./group-members.ts";
import { deleteGroup as deleteRow, findGroup, insertGroup, updateGroup as updateRow, type GroupRow } from "./group.store.ts";

export interface GroupView extends GroupRow {
  members: GroupMembership[];
}

export interface GroupDraft {
  title: string;
  description: string;
  email: string;
  require2fa: boolean;
  members: readonly MemberInput[];
}

export interface GroupUpdate extends GroupDraft {
  id: string;
  /** update_mask paths: title, description, email, members, require2fa. */
  paths: readonly string[];
  /** The etag the writer read; empty writes unconditionally. */
  etag: string;
}

const MASK = {
  resource: "group",
  editable: ["title", "description", "email", "members", "require2fa"],
  outputOnly: ["name", "source", "etag", "create_time", "update_time"],
} as const;

export async function getGroup(db: CommonQueryMethods, id: string): Promise<GroupView> {
  const row = await findGroup(db, id);
  if (!row) throw notFound(`group "${groupName(id)}" does not exist`);
  return (await withMembers(db, [row]))[0]!;
}

/** The groups with their members, in the order given. */
export async function withMembers(db: CommonQueryMethods, rows: readonly GroupRow[]): Promise<GroupView[]> {
  const members = rows.length === 0 ? new Map<string, GroupMembership[]>() : await membersOf(db, rows.map((r) => r.id));
  return rows.map((row) => ({ ...row, members: members.get(row.id) ?? [] }));
}

export async function createGroup(tx: CommonQueryMethods, id: string, draft: GroupDraft): Promise<GroupView> {
  if (!RESOURCE_ID_PATTERN.test(id)) {
    throw invalidArgument(`group_id: ${quoted(id)} is not a valid group id; it starts with a lower-case letter and has up to 63 lower-case letters, digits and hyphens`);
  }
  const members = await checkedMembers(tx, draft.members, "group.members");
  const email = parseEmail(draft.email, "group.email");
  await checkGroupDomain(tx, email);
  const row = await insertGroup(tx, id, { ...draft, email });
  if (!row) throw alreadyExists(`group "${groupName(id)}" already exists`);
  await replaceMembers(tx, id, members);
  return { ...row, members };
}

export async function updateGroup(tx: CommonQueryMethods, caller: IamSubject, update: GroupUpdate): Promise<GroupView> {
  const row = await findGroup(tx, update.id, true);
  const current = row && (await withMembers(tx, [row]))[0]!;
  const owner = current?.members.some((m) => m.loginId === caller.loginId && m.role === "OWNER") ?? false;
  if (!owner) await requirePermission(storedIam(tx), caller, "bb.groups.update", WORKSPACE);
  if (!current) throw notFound(`group "${groupName(update.id)}" does not exist`);
  if (update.etag && update.etag !== current.etag) {
    throw aborted(`group "${groupName(current.id)}" changed since it was read (etag ${update.etag} is stale); read it again and retry`);
  }
  const fields = maskFields(update.paths, MASK);
  const members = fields.has("members") ? await checkedMembers(tx, update.members, "group.members") : current.members;
  const email = fields.has("email") ? parseEmail(update.email, "group.email") : current.email;
  if (email !== current.email) await checkGroupDomain(tx, email);
  const updated = await updateRow(tx, current.id, {
    title: fields.has("title") ? update.title : current.title,
    description: fields.has("description") ? update.description : current.description,
    email,
    require2fa: fields.has("require2fa") ? update.require2fa : current.require2fa,
  });
  if (fields.has("members")) await replaceMembers(tx, current.id, members);
  return { ...updated, members };
}

export async function deleteGroup(tx: CommonQueryMethods, id: string): Promise<void> {
  if (!(await findGroup(tx, id, true))) throw notFound(`group "${groupName(id)}" does not exist`);
  const scopes = await scopesWithBinding(tx, { members: [groupMember(id)] });
  if (scopes.length > 0) {
    throw failedPrecondition(`group "${groupName(id)}" is named by bindings in the IAM policies of ${scopes.join(", ")}; remove those bindings first`);
  }
  await deleteRow(tx, id);
}
