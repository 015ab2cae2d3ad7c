// SQL on session_token: one row per issued access or refresh token.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { preparedCommand } from "../../platform/index.ts";
import type { TokenKind } from "./tokens.ts";

/** The access and the refresh token of a new pair in one family. */
export interface NewSessionTokens {
  familyId: string;
  principalId: number;
  pendingMfaEnrollment: boolean;
  /** The pair opens a sign-in: the principal's sign-in time is recorded by the same statement. */
  recordsSignIn: boolean;
  clientIp: string;
  userAgent: string;
  access: NewToken;
  refresh: NewToken;
}

interface NewToken {
  hash: Buffer;
  lifetimeMs: number;
}

const expiryRow = z.object({ kind: z.enum(["ACCESS", "REFRESH"]), expire_time: z.coerce.date() });

const tokenRow = z
  .object({
    family_id: z.string(),
    principal_id: z.coerce.number(),
    kind: z.enum(["ACCESS", "REFRESH"]),
    expire_time: z.coerce.date(),
    family_last_used_time: z.coerce.date(),
    spent_time: z.coerce.date().nullable(),
    revoked_time: z.coerce.date().nullable(),
    pending_mfa_enrollment: z.boolean(),
    login_id: z.string(),
    principal_state: z.enum(["ACTIVE", "DELETED"]),
    require_reset_password: z.boolean(),
    password_change_time: z.coerce.date().nullable(),
  })
  .transform((r) => ({
    familyId: r.family_id,
    principalId: r.principal_id,
    kind: r.kind,
    expireTime: r.expire_time,
    familyLastUsedTime: r.family_last_used_time,
    spentTime: r.spent_time,
    revokedTime: r.revoked_time,
    pendingMfaEnrollment: r.pending_mfa_enrollment,
    principal: {
      loginId: r.login_id,
      active: r.principal_state === "ACTIVE",
      requireResetPassword: r.require_reset_password,
      passwordChangeTime: r.password_change_time,
    },
  }));

export type SessionTokenRow = z.infer<typeof tokenRow>;

/** Writes both tokens (and the sign-in time when the pair opens a sign-in) in one statement; answers the expiry of each kind. */
export async function insertSessionTokens(db: CommonQueryMethods, pair: NewSessionTokens): Promise<Record<TokenKind, Date>> {
  const values = (kind: TokenKind, token: NewToken) => sql.fragment`
    (${sql.binary(token.hash)}, ${pair.familyId}, ${pair.principalId}, ${kind},
     now() + make_interval(secs => ${token.lifetimeMs / 1000}), ${pair.clientIp}, ${pair.userAgent}, ${pair.pendingMfaEnrollment})`;
  const signIn = pair.recordsSignIn
    ? sql.fragment`with signed_in as (update principal set last_login_time = now() where id = ${pair.principalId})`
    : sql.fragment``;
  const rows = await db.many(sql.prepared(pair.recordsSignIn ? "session_token.insert_signing_in" : "session_token.insert", expiryRow)`
    ${signIn}
    insert into session_token (token_hash, family_id, principal_id, kind, expire_time, client_ip, user_agent, pending_mfa_enrollment)
    values ${values("ACCESS", pair.access)}, ${values("REFRESH", pair.refresh)}
    returning kind, expire_time`);
  const expiry = (kind: TokenKind) => rows.find((row) => row.kind === kind)!.expire_time;
  return { ACCESS: expiry("ACCESS"), REFRESH: expiry("REFRESH") };
}

const tokenColumns = sql.fragment`
  t.family_id, t.principal_id, t.kind, t.expire_time, t.spent_time, t.revoked_time, t.pending_mfa_enrollment,
  (select max(f.last_used_time) from session_token f where f.family_id = t.family_id) as family_last_used_time,
  p.login_id, p.state as principal_state, p.require_reset_password, p.password_change_time`;

/**
 * The token, its family's latest use and its principal; `forUpdate` locks it
 * (refresh rotation). Named statements: every authenticated call reads it.
 */
export async function findSessionToken(db: CommonQueryMethods, hash: Buffer, forUpdate = false): Promise<SessionTokenRow | undefined> {
  const token = sql.binary(hash);
  const row = forUpdate
    ? await db.maybeOne(sql.prepared("session_token.find_for_update", tokenRow)`
        select ${tokenColumns} from session_token t join principal p on p.id = t.principal_id where t.token_hash = ${token} for update of t`)
    : await db.maybeOne(sql.prepared("session_token.find", tokenRow)`
        select ${tokenColumns} from session_token t join principal p on p.id = t.principal_id where t.token_hash = ${token}`);
  return row ?? undefined;
}

/** Records a use of the token now. */
export async function touchSessionToken(db: CommonQueryMethods, hash: Buffer): Promise<void> {
  await db.query(preparedCommand("session_token.touch")`update session_token set last_used_time = now() where token_hash = ${sql.binary(hash)}`);
}

export async function spendSessionToken(db: CommonQueryMethods, hash: Buffer): Promise<void> {
  await db.query(sql.unsafe`update session_token set spent_time = now() where token_hash = ${sql.binary(hash)}`);
}

/** Lifts the enrolment limit of every session of the principal. */
export async function clearPendingMfaEnrollment(db: CommonQueryMethods, principalId: number): Promise<void> {
  await db.query(sql.unsafe`
    update session_token set pending_mfa_enrollment = false where principal_id = ${principalId} and pending_mfa_enrollment`);
}

export async function revokeFamily(db: CommonQueryMethods, familyId: string): Promise<void> {
  await db.query(sql.unsafe`update session_token set revoked_time = now() where family_id = ${familyId} and revoked_time is null`);
}

/** Revokes every session of a principal, except one family when given (the caller's own). */
export async function revokePrincipalSessions(db: CommonQueryMethods, principalId: number, exceptFamilyId?: string): Promise<void> {
  await db.query(sql.unsafe`
    update session_token set revoked_time = now()
    where principal_id = ${principalId} and revoked_time is null
      and family_id is distinct from ${exceptFamilyId ?? null}::uuid`);
}

/** Revokes every session of the principal with this login id, when there is one (a lock, contract §4.3). */
export async function revokeLoginIdSessions(db: CommonQueryMethods, loginId: string): Promise<void> {
  await db.query(sql.unsafe`
    update session_token set revoked_time = now()
    where principal_id = (select id from principal where login_id = ${loginId}) and revoked_time is null`);
}

/**
 * Drops the families whose every token expired more than a day ago. A family
 * goes whole: its spent refresh tokens are kept while it lives, so that a
 * stolen one presented again still revokes it, and its latest use stays known.
 */
export async function deleteExpiredSessionTokens(db: CommonQueryMethods): Promise<number> {
  const result = await db.query(sql.unsafe`
    delete from session_token t
    where t.expire_time < now() - interval '1 day'
      and not exists (select 1 from session_token f where f.family_id = t.family_id and f.expire_time >= now() - interval '1 day')`);
  return result.rowCount;
}

const lastUseRow = z.object({ t: z.coerce.date().nullable() });

/** The latest use of any session, or undefined before the first sign-in. */
export async function lastSessionUse(db: CommonQueryMethods): Promise<Date | undefined> {
  const time = await db.oneFirst(sql.type(lastUseRow)`select max(last_used_time) as t from session_token`);
  return time ?? undefined;
}
