// SQL on session_token: one row per issued access or refresh token.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import type { TokenKind } from "./tokens.ts";

export interface NewSessionToken {
  hash: Buffer;
  familyId: string;
  principalId: number;
  kind: TokenKind;
  lifetimeMs: number;
  clientIp: string;
  userAgent: string;
}

const tokenRow = z
  .object({
    family_id: z.string(),
    principal_id: z.coerce.number(),
    kind: z.enum(["ACCESS", "REFRESH"]),
    expire_time: z.coerce.date(),
    family_last_used_time: z.coerce.date(),
    spent_time: z.coerce.date().nullable(),
    revoked_time: z.coerce.date().nullable(),
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
    principal: {
      loginId: r.login_id,
      active: r.principal_state === "ACTIVE",
      requireResetPassword: r.require_reset_password,
      passwordChangeTime: r.password_change_time,
    },
  }));

export type SessionTokenRow = z.infer<typeof tokenRow>;

export async function insertSessionToken(db: CommonQueryMethods, token: NewSessionToken): Promise<Date> {
  return db.oneFirst(sql.type(z.object({ expire_time: z.coerce.date() }))`
    insert into session_token (token_hash, family_id, principal_id, kind, expire_time, client_ip, user_agent)
    values (${sql.binary(token.hash)}, ${token.familyId}, ${token.principalId}, ${token.kind},
            now() + make_interval(secs => ${token.lifetimeMs / 1000}), ${token.clientIp}, ${token.userAgent})
    returning expire_time`);
}

/** The token, its family's latest use and its principal; `forUpdate` locks it (refresh rotation). */
export async function findSessionToken(db: CommonQueryMethods, hash: Buffer, forUpdate = false): Promise<SessionTokenRow | undefined> {
  const row = await db.maybeOne(sql.type(tokenRow)`
    select t.family_id, t.principal_id, t.kind, t.expire_time, t.spent_time, t.revoked_time,
           (select max(f.last_used_time) from session_token f where f.family_id = t.family_id) as family_last_used_time,
           p.login_id, p.state as principal_state, p.require_reset_password, p.password_change_time
    from session_token t join principal p on p.id = t.principal_id
    where t.token_hash = ${sql.binary(hash)}
    ${forUpdate ? sql.fragment`for update of t` : sql.fragment``}`);
  return row ?? undefined;
}

/** Records a use of the token now. */
export async function touchSessionToken(db: CommonQueryMethods, hash: Buffer): Promise<void> {
  await db.query(sql.unsafe`update session_token set last_used_time = now() where token_hash = ${sql.binary(hash)}`);
}

export async function spendSessionToken(db: CommonQueryMethods, hash: Buffer): Promise<void> {
  await db.query(sql.unsafe`update session_token set spent_time = now() where token_hash = ${sql.binary(hash)}`);
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

/** Drops tokens that expired more than a day ago. */
export async function deleteExpiredSessionTokens(db: CommonQueryMethods): Promise<number> {
  const result = await db.query(sql.unsafe`delete from session_token where expire_time < now() - interval '1 day'`);
  return result.rowCount;
}

/** The latest use of any session, or undefined before the first sign-in. */
export async function lastSessionUse(db: CommonQueryMethods): Promise<Date | undefined> {
  const time = await db.oneFirst(sql.type(z.object({ t: z.coerce.date().nullable() }))`select max(last_used_time) as t from session_token`);
  return time ?? undefined;
}
