// SQL of directory sync on user_group and group_member. SCIM sees the groups
// it provisioned (source SCIM); groups made in the service stay out of its
// reach. Membership changes from a directory are applied as additions and
// removals, so that members who stay keep their rows and roles.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import { columns, groupRow, type GroupRow } from "../group/group.store.ts";
import { countRow, quoted, textIdRow } from "../../platform/index.ts";
import { invalidFilter } from "./scim-error.ts";
import type { CompareValue, Comparison } from "./scim-filter.ts";

export interface ScimGroupRow {
  group: GroupRow;
  externalId: string;
}

const scimGroupRow = z.looseObject({ external_id: z.string() }).transform((r) => ({ group: groupRow.parse(r), externalId: r.external_id }));

const VISIBLE = sql.fragment`source = 'SCIM'`;

const text = (value: CompareValue) => (value === null ? "" : String(value));
const hasMember = (value: CompareValue) =>
  sql.fragment`exists (select 1 from group_member m where m.group_id = user_group.id and m.login_id = ${text(value).toLowerCase()})`;

/** Filter attributes (lower-case) → the condition of `attribute eq value`. */
const FILTERS: Record<string, (value: CompareValue) => FragmentSqlToken> = {
  id: (value) => sql.fragment`id = ${text(value)}`,
  displayname: (value) => sql.fragment`lower(title) = ${text(value).toLowerCase()}`,
  externalid: (value) => sql.fragment`external_id = ${text(value)}`,
  members: hasMember,
  "members.value": hasMember,
};

export async function findScimGroup(db: CommonQueryMethods, id: string, lock = false): Promise<ScimGroupRow | undefined> {
  const row = await db.maybeOne(sql.type(scimGroupRow)`
    select ${columns}, external_id from user_group where id = ${id} and ${VISIBLE} ${lock ? sql.fragment`for update` : sql.fragment``}`);
  return row ?? undefined;
}

/** The groups matching every comparison, by id, `limit` of them after the first `offset`. */
export async function listScimGroups(db: CommonQueryMethods, filter: readonly Comparison[], offset: number, limit: number): Promise<readonly ScimGroupRow[]> {
  if (limit === 0) return [];
  return db.any(sql.type(scimGroupRow)`
    select ${columns}, external_id from user_group where ${conditions(filter)} order by id offset ${offset} limit ${limit}`);
}

export async function countScimGroups(db: CommonQueryMethods, filter: readonly Comparison[]): Promise<number> {
  return db.oneFirst(sql.type(countRow)`select count(*)::int as n from user_group where ${conditions(filter)}`);
}

/** The id of another SCIM group with this title (ignoring case), if any. */
export async function scimGroupTitled(db: CommonQueryMethods, title: string, exceptId = ""): Promise<string | undefined> {
  const id = await db.maybeOneFirst(sql.type(textIdRow)`
    select id from user_group where ${VISIBLE} and lower(title) = ${title.toLowerCase()} and id <> ${exceptId} limit 1`);
  return id ?? undefined;
}

/** The ids taken among `base` and `base-<n>`. */
export async function takenGroupIds(db: CommonQueryMethods, base: string): Promise<Set<string>> {
  const rows = await db.anyFirst(sql.type(textIdRow)`
    select id from user_group where id = ${base} or (starts_with(id, ${`${base}-`}) and substr(id, ${base.length + 2}) ~ '^[0-9]+$')`);
  return new Set(rows);
}

/** Marks a group just created as provisioned by directory sync. */
export async function markScimGroup(db: CommonQueryMethods, id: string, externalId: string): Promise<void> {
  await db.query(sql.unsafe`update user_group set source = 'SCIM', external_id = ${externalId} where id = ${id}`);
}

export async function setGroupExternalId(db: CommonQueryMethods, id: string, externalId: string): Promise<void> {
  await db.query(sql.unsafe`update user_group set external_id = ${externalId} where id = ${id}`);
}

/** Adds members (as MEMBER); those already in the group keep their row. */
export async function addGroupMembers(db: CommonQueryMethods, groupId: string, loginIds: readonly string[]): Promise<void> {
  if (loginIds.length === 0) return;
  await db.query(sql.unsafe`
    insert into group_member (group_id, login_id, role)
    select ${groupId}, login_id, 'MEMBER' from unnest(${sql.array(loginIds, "text")}) as m (login_id)
    on conflict (group_id, login_id) do nothing`);
}

export async function removeGroupMembers(db: CommonQueryMethods, groupId: string, loginIds: readonly string[]): Promise<void> {
  if (loginIds.length === 0) return;
  await db.query(sql.unsafe`delete from group_member where group_id = ${groupId} and login_id = any(${sql.array(loginIds, "text")})`);
}

function conditions(filter: readonly Comparison[]): FragmentSqlToken {
  return sql.fragment`${sql.join([VISIBLE, ...filter.map(condition)], sql.fragment` and `)}`;
}

function condition({ attribute, value }: Comparison): FragmentSqlToken {
  const build = FILTERS[attribute];
  if (!build) throw invalidFilter(`filter attribute ${quoted(attribute)} is not supported for Groups; supported: id, displayName, externalId, members.value`);
  return build(value);
}
