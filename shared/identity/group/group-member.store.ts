// SQL on group_member: who belongs to which group, with which role.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

export type GroupRole = "OWNER" | "MEMBER";

export interface GroupMembership {
  loginId: string;
  role: GroupRole;
}

const memberRow = z
  .object({ group_id: z.string(), login_id: z.string(), role: z.enum(["OWNER", "MEMBER"]) })
  .transform((r) => ({ groupId: r.group_id, loginId: r.login_id, role: r.role }));

/** The members of each of these groups, by login id. */
export async function membersOf(db: CommonQueryMethods, groupIds: readonly string[]): Promise<Map<string, GroupMembership[]>> {
  const rows = await db.any(sql.type(memberRow)`
    select group_id, login_id, role from group_member where group_id = any(${sql.array(groupIds, "text")})
    order by group_id, login_id`);
  const members = new Map<string, GroupMembership[]>(groupIds.map((id) => [id, []]));
  for (const row of rows) members.get(row.groupId)?.push({ loginId: row.loginId, role: row.role });
  return members;
}

/** Replaces the members of a group with `members` (login ids already checked). */
export async function replaceMembers(db: CommonQueryMethods, groupId: string, members: readonly GroupMembership[]): Promise<void> {
  await db.query(sql.unsafe`delete from group_member where group_id = ${groupId}`);
  if (members.length === 0) return;
  await db.query(sql.unsafe`
    insert into group_member (group_id, login_id, role)
    select ${groupId}, login_id, role
    from unnest(${sql.array(members.map((m) => m.loginId), "text")}, ${sql.array(members.map((m) => m.role), "text")}) as m (login_id, role)`);
}

const groupIdRow = z.object({ group_id: z.string() });

const userGroupRow = z.object({ login_id: z.string(), group_id: z.string() });

/** The ids of the groups a user belongs to, sorted; named, as every permission check that involves groups reads it. */
export async function groupIdsOfUser(db: CommonQueryMethods, loginId: string): Promise<string[]> {
  return [...(await db.anyFirst(sql.prepared("group_member.group_ids_of_user", groupIdRow)`
    select group_id from group_member where login_id = ${loginId} order by group_id`))];
}

/** The group ids of each of these users, sorted (an index-only scan on group_member_login). */
export async function groupIdsOfUsers(db: CommonQueryMethods, loginIds: readonly string[]): Promise<Map<string, string[]>> {
  const rows = await db.any(sql.type(userGroupRow)`
    select login_id, group_id from group_member where login_id = any(${sql.array(loginIds, "text")})
    order by login_id, group_id`);
  const groups = new Map<string, string[]>(loginIds.map((id) => [id, []]));
  for (const row of rows) groups.get(row.login_id)?.push(row.group_id);
  return groups;
}

const requiredRow = z.object({ required: z.boolean() });

/** True when the user belongs to a group that requires a second factor (contract §5.1). */
export async function inRequire2faGroup(db: CommonQueryMethods, loginId: string): Promise<boolean> {
  return db.oneFirst(sql.type(requiredRow)`select ${require2faGroupMembership(loginId)} as required`);
}

/** The condition of inRequire2faGroup, for a statement that reads it with other facts. */
export function require2faGroupMembership(loginId: string) {
  return sql.fragment`exists (
    select 1 from group_member m join user_group g on g.id = m.group_id
    where m.login_id = ${loginId} and g.require_2fa)`;
}
