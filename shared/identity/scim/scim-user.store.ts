// SQL of directory sync on principal. SCIM sees the end users that are not
// local accounts: those it provisioned and those of an identity provider.
// Local accounts and service accounts stay out of its reach, as single
// sign-on never takes over a local account either.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import { loginIdRow, userColumns, userRow } from "../user/user.store.ts";
import { countRow, quoted } from "../../platform/index.ts";
import { invalidFilter } from "./scim-error.ts";
import type { CompareValue, Comparison } from "./scim-filter.ts";
import type { ScimUserRecord } from "./scim-user-map.ts";

const scimUserRow = z.looseObject({ external_id: z.string() }).transform((r) => ({ user: userRow.parse(r), externalId: r.external_id }));

const VISIBLE = sql.fragment`type = 'END_USER' and source <> 'LOCAL'`;

const text = (value: CompareValue) => (value === null ? "" : String(value));
const isTrue = (value: CompareValue) => value === true || text(value).toLowerCase() === "true";
const byEmail = (value: CompareValue) => sql.fragment`email <> '' and email = ${text(value).toLowerCase()}`;

/** Filter attributes (lower-case) → the condition of `attribute eq value`. */
const FILTERS: Record<string, (value: CompareValue) => FragmentSqlToken> = {
  id: (value) => sql.fragment`login_id = ${text(value).toLowerCase()}`,
  username: (value) => sql.fragment`login_id = ${text(value).toLowerCase()}`,
  externalid: (value) => sql.fragment`external_id = ${text(value)}`,
  displayname: (value) => sql.fragment`lower(title) = ${text(value).toLowerCase()}`,
  emails: byEmail,
  "emails.value": byEmail,
  // The one address a user has is shown as the primary work address.
  "emails.type": (value) => (text(value).toLowerCase() === "work" ? sql.fragment`email <> ''` : sql.fragment`false`),
  "emails.primary": (value) => (isTrue(value) ? sql.fragment`email <> ''` : sql.fragment`false`),
  active: (value) => sql.fragment`state = ${isTrue(value) ? "ACTIVE" : "DELETED"}`,
};

export async function findScimUser(db: CommonQueryMethods, loginId: string, lock = false): Promise<ScimUserRecord | undefined> {
  const row = await db.maybeOne(sql.type(scimUserRow)`
    select ${userColumns}, external_id from principal
    where login_id = ${loginId} and ${VISIBLE} ${lock ? sql.fragment`for update` : sql.fragment``}`);
  return row ?? undefined;
}

/** The users matching every comparison, by id, `limit` of them after the first `offset`. */
export async function listScimUsers(db: CommonQueryMethods, filter: readonly Comparison[], offset: number, limit: number): Promise<readonly ScimUserRecord[]> {
  if (limit === 0) return [];
  return db.any(sql.type(scimUserRow)`
    select ${userColumns}, external_id from principal where ${conditions(filter)}
    order by id offset ${offset} limit ${limit}`);
}

export async function countScimUsers(db: CommonQueryMethods, filter: readonly Comparison[]): Promise<number> {
  return db.oneFirst(sql.type(countRow)`select count(*)::int as n from principal where ${conditions(filter)}`);
}

export async function setUserExternalId(db: CommonQueryMethods, id: number, externalId: string): Promise<void> {
  await db.query(sql.unsafe`update principal set external_id = ${externalId}, update_time = now() where id = ${id}`);
}

/** The login ids among `loginIds` of active users SCIM sees. */
export async function activeScimLoginIds(db: CommonQueryMethods, loginIds: readonly string[]): Promise<Set<string>> {
  const rows = await db.anyFirst(sql.type(loginIdRow)`
    select login_id from principal where state = 'ACTIVE' and ${VISIBLE} and login_id = any(${sql.array(loginIds, "text")})`);
  return new Set(rows);
}

function conditions(filter: readonly Comparison[]): FragmentSqlToken {
  return sql.fragment`${sql.join([VISIBLE, ...filter.map(condition)], sql.fragment` and `)}`;
}

function condition({ attribute, value }: Comparison): FragmentSqlToken {
  const build = FILTERS[attribute];
  if (!build) {
    throw invalidFilter(`filter attribute ${quoted(attribute)} is not supported for Users; supported: id, userName, externalId, displayName, emails.value, active`);
  }
  return build(value);
}
