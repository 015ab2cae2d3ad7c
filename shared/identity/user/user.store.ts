// SQL on the principal table (users and service accounts).
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { BOOTSTRAP_LOCK, countRow } from "../../platform/index.ts";

const optionalDate = z.coerce.date().nullable();

export const userRow = z
  .object({
    id: z.coerce.number(),
    login_id: z.string(),
    email: z.string(),
    title: z.string(),
    type: z.enum(["END_USER", "SERVICE_ACCOUNT"]),
    state: z.enum(["ACTIVE", "DELETED"]),
    source: z.enum(["LOCAL", "OIDC", "SAML", "SCIM"]),
    password_hash: z.string().nullable(),
    password_change_time: optionalDate,
    require_reset_password: z.boolean(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
    last_login_time: optionalDate,
    mfa_enabled: z.boolean(),
  })
  .transform((r) => ({
    id: r.id,
    loginId: r.login_id,
    email: r.email,
    title: r.title,
    type: r.type,
    state: r.state,
    source: r.source,
    passwordHash: r.password_hash,
    passwordChangeTime: r.password_change_time,
    requireResetPassword: r.require_reset_password,
    createTime: r.create_time,
    updateTime: r.update_time,
    lastLoginTime: r.last_login_time,
    mfaEnabled: r.mfa_enabled,
  }));

export type UserRow = z.infer<typeof userRow>;

export const userColumns = sql.fragment`id, login_id, email, title, type, state, source, password_hash, password_change_time,
  require_reset_password, create_time, update_time, last_login_time, mfa_secret is not null as mfa_enabled`;

export interface NewUser {
  loginId: string;
  email: string;
  title: string;
  type: UserRow["type"];
  source: UserRow["source"];
  passwordHash: string | null;
  requireResetPassword: boolean;
}

/**
 * The new user, or undefined when the login id is taken. A concurrent insert
 * of the same id waits for the other transaction and answers undefined once
 * it commits. The bare insert: writers go through addUser (new-user.ts),
 * which holds the user to the workspace's domains and grants its roles.
 */
export async function insertUser(db: CommonQueryMethods, user: NewUser): Promise<UserRow | undefined> {
  const row = await db.maybeOne(sql.type(userRow)`
    insert into principal (login_id, email, title, type, source, password_hash, password_change_time, require_reset_password)
    values (${user.loginId}, ${user.email}, ${user.title}, ${user.type}, ${user.source}, ${user.passwordHash},
            ${user.passwordHash ? sql.fragment`now()` : null}, ${user.requireResetPassword})
    on conflict (login_id) do nothing
    returning ${userColumns}`);
  return row ?? undefined;
}

export async function findUserByLoginId(db: CommonQueryMethods, loginId: string): Promise<UserRow | undefined> {
  return (await db.maybeOne(sql.type(userRow)`select ${userColumns} from principal where login_id = ${loginId}`)) ?? undefined;
}

/** The active local end users with this e-mail address (stored lower-case; addresses are not unique). */
export async function findActiveLocalUsersByEmail(db: CommonQueryMethods, email: string): Promise<readonly UserRow[]> {
  return db.any(sql.type(userRow)`
    select ${userColumns} from principal
    where email = ${email} and email <> '' and state = 'ACTIVE' and type = 'END_USER' and source = 'LOCAL' order by id`);
}

export async function findUserById(db: CommonQueryMethods, id: number): Promise<UserRow | undefined> {
  return (await db.maybeOne(sql.type(userRow)`select ${userColumns} from principal where id = ${id}`)) ?? undefined;
}

/** Makes the transactions that create the first administrator take turns (held until the transaction ends). */
export async function lockBootstrap(tx: CommonQueryMethods): Promise<void> {
  await tx.query(sql.unsafe`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
}

export async function countUsers(db: CommonQueryMethods): Promise<number> {
  return db.oneFirst(sql.type(countRow)`select count(*)::int as n from principal`);
}

export async function setPassword(db: CommonQueryMethods, id: number, hash: string, requireReset: boolean): Promise<void> {
  await db.query(sql.unsafe`
    update principal set password_hash = ${hash}, password_change_time = now(), require_reset_password = ${requireReset},
                         update_time = now()
    where id = ${id}`);
}

/** Replaces the hash only (a rehash with stronger parameters; the password is unchanged). */
export async function replacePasswordHash(db: CommonQueryMethods, id: number, hash: string): Promise<void> {
  await db.query(sql.unsafe`update principal set password_hash = ${hash} where id = ${id}`);
}

/** The bare write; writers go through writeUserProfile (user-profile.ts), which holds a new e-mail to the workspace's domains. */
export async function updateProfile(db: CommonQueryMethods, id: number, profile: { title: string; email: string }): Promise<void> {
  await db.query(sql.unsafe`update principal set title = ${profile.title}, email = ${profile.email}, update_time = now() where id = ${id}`);
}

/** A principal's login id. */
export const loginIdRow = z.object({ login_id: z.string() });

/** The login ids among `loginIds` that belong to active principals. */
export async function activeLoginIds(db: CommonQueryMethods, loginIds: readonly string[]): Promise<Set<string>> {
  const rows = await db.anyFirst(sql.type(loginIdRow)`
    select login_id from principal where state = 'ACTIVE' and login_id = any(${sql.array(loginIds, "text")})`);
  return new Set(rows);
}

/** An active end user who can be reached by e-mail. */
export interface Contact {
  loginId: string;
  email: string;
}

const contactRow = z.object({ login_id: z.string(), email: z.string() }).transform((r) => ({ loginId: r.login_id, email: r.email }));

/** The active end users among `loginIds` that have an e-mail address, by login id. */
export async function contactsOf(db: CommonQueryMethods, loginIds: readonly string[]): Promise<Contact[]> {
  if (loginIds.length === 0) return [];
  return [...(await db.any(sql.type(contactRow)`
    select login_id, email from principal
    where state = 'ACTIVE' and type = 'END_USER' and email <> '' and login_id = any(${sql.array(loginIds, "text")})
    order by login_id`))];
}

const firstAdminPendingRow = z.object({ pending: z.boolean() });

/** True while the first principal (the bootstrap administrator) has never signed in or still has to change its password. */
export async function firstAdminPending(db: CommonQueryMethods): Promise<boolean> {
  return db.oneFirst(sql.type(firstAdminPendingRow)`
    select coalesce((select last_login_time is null or require_reset_password from principal order by id limit 1), true) as pending`);
}

export async function setUserState(db: CommonQueryMethods, id: number, state: UserRow["state"]): Promise<void> {
  await db.query(sql.unsafe`update principal set state = ${state}, update_time = now() where id = ${id}`);
}

export async function setServiceKey(db: CommonQueryMethods, id: number, keyHash: Buffer): Promise<void> {
  await db.query(sql.unsafe`update principal set service_key_hash = ${sql.binary(keyHash)}, update_time = now() where id = ${id}`);
}

/** The active service account holding a live key with this hash. */
export async function findByServiceKey(db: CommonQueryMethods, keyHash: Buffer): Promise<UserRow | undefined> {
  const row = await db.maybeOne(sql.type(userRow)`
    select ${userColumns} from principal
    where service_key_hash = ${sql.binary(keyHash)} and state = 'ACTIVE' and type = 'SERVICE_ACCOUNT'
      and (service_key_expire_time is null or service_key_expire_time > now())`);
  return row ?? undefined;
}
