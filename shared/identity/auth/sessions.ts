// Sign-in sessions (contract §4.3): an access and a refresh token per family,
// opaque and stored hashed, so that revocation acts on the next request.
import { randomUUID } from "node:crypto";
import type { CommonQueryMethods } from "slonik";
import { type Db, unauthenticated, userName, withTransaction } from "../../platform/index.ts";
import type { WorkspaceProfile } from "../../governance/index.ts";
import { passwordChangeDue } from "../user/password-rotation.ts";
import type { Principal, Restriction } from "./principal.ts";
import {
  findSessionToken,
  insertSessionTokens,
  revokeFamily,
  spendSessionToken,
  touchSessionToken,
  type SessionTokenRow,
} from "./session.store.ts";
import { newToken, tokenHash } from "./tokens.ts";

const TOUCH_INTERVAL_MS = 60_000;

export type SessionPolicy = Pick<WorkspaceProfile, "accessTokenDurationMs" | "refreshTokenDurationMs" | "inactiveSessionTimeoutMs"> & {
  passwordRotationMs: number | undefined;
};

export function sessionPolicyOf(profile: WorkspaceProfile): SessionPolicy {
  return { ...profile, passwordRotationMs: profile.passwordRestriction.passwordRotationMs };
}

export interface ClientFacts {
  clientIp: string;
  userAgent: string;
}

export interface IssuedSession {
  familyId: string;
  principalId: number;
  accessToken: string;
  accessExpireTime: Date;
  refreshToken: string;
  refreshExpireTime: Date;
  /** The session is limited to enrolling a second factor until that is done (contract §5.1). */
  pendingMfaEnrollment: boolean;
}

export interface SessionFamily {
  /** The family a refresh continues; a new one by default. */
  familyId?: string;
  pendingMfaEnrollment?: boolean;
  /** A sign-in opens the family: the user's sign-in time is recorded with it. */
  recordsSignIn?: boolean;
}

export async function issueSession(
  db: CommonQueryMethods,
  principalId: number,
  policy: SessionPolicy,
  client: ClientFacts,
  { familyId = randomUUID(), pendingMfaEnrollment = false, recordsSignIn = false }: SessionFamily = {},
): Promise<IssuedSession> {
  const accessToken = newToken("ACCESS");
  const refreshToken = newToken("REFRESH");
  const expiry = await insertSessionTokens(db, {
    familyId,
    principalId,
    pendingMfaEnrollment,
    recordsSignIn,
    ...client,
    access: { hash: tokenHash(accessToken), lifetimeMs: policy.accessTokenDurationMs },
    refresh: { hash: tokenHash(refreshToken), lifetimeMs: policy.refreshTokenDurationMs },
  });
  return { familyId, principalId, accessToken, accessExpireTime: expiry.ACCESS, refreshToken, refreshExpireTime: expiry.REFRESH, pendingMfaEnrollment };
}

/** How a sign-in check reads tokens: from the store, or through the access cache. */
export interface SessionTokens {
  find(hash: Buffer): Promise<SessionTokenRow | undefined>;
  /** Records a use of the token now. */
  touch(hash: Buffer): Promise<void>;
}

export function storedSessionTokens(db: CommonQueryMethods): SessionTokens {
  return { find: (hash) => findSessionToken(db, hash), touch: (hash) => touchSessionToken(db, hash) };
}

/** The principal of a live access token, or undefined for an unknown, expired, revoked or idle one. */
export async function authenticateAccessToken(tokens: SessionTokens, token: string, policy: SessionPolicy): Promise<Principal | undefined> {
  const hash = tokenHash(token);
  const row = await tokens.find(hash);
  if (!row || row.kind !== "ACCESS" || !isLive(row, policy)) return undefined;
  // Idleness is measured in minutes: record a use at most once a minute per family.
  if (Date.now() - row.familyLastUsedTime.getTime() > TOUCH_INTERVAL_MS) await tokens.touch(hash);
  return {
    name: userName(row.principal.loginId),
    id: row.principalId,
    loginId: row.principal.loginId,
    sessionFamilyId: row.familyId,
    restriction: restrictionOf(row, policy),
  };
}

function restrictionOf(row: SessionTokenRow, policy: SessionPolicy): Restriction | undefined {
  if (passwordChangeDue(row.principal, policy.passwordRotationMs)) return "password_change";
  return row.pendingMfaEnrollment ? "mfa_enrollment" : undefined;
}

/**
 * Exchanges a refresh token for a new pair in the same family. A spent token
 * presented again means it was stolen: the whole family is revoked, and that
 * revocation commits although the call fails.
 */
export async function refreshSession(db: Db, token: string, policy: SessionPolicy, client: ClientFacts): Promise<IssuedSession> {
  const hash = tokenHash(token);
  const outcome = await withTransaction(db, async (tx) => {
    const row = await findSessionToken(tx, hash, true);
    if (!row || row.kind !== "REFRESH") return "invalid";
    if (row.spentTime) {
      if (!row.revokedTime) await revokeFamily(tx, row.familyId);
      return "reused";
    }
    if (!isLive(row, policy)) return "invalid";
    await spendSessionToken(tx, hash);
    return issueSession(tx, row.principalId, policy, client, { familyId: row.familyId, pendingMfaEnrollment: row.pendingMfaEnrollment });
  });
  if (outcome === "reused") throw unauthenticated("the refresh token was already used; the session is revoked");
  if (outcome === "invalid") throw unauthenticated("the refresh token is invalid, expired or revoked");
  return outcome;
}

export function endSession(db: CommonQueryMethods, familyId: string): Promise<void> {
  return revokeFamily(db, familyId);
}

function isLive(row: SessionTokenRow, policy: SessionPolicy): boolean {
  const now = Date.now();
  if (row.revokedTime || row.expireTime.getTime() <= now || !row.principal.active) return false;
  const idleLimit = policy.inactiveSessionTimeoutMs;
  return idleLimit === undefined || row.familyLastUsedTime.getTime() + idleLimit > now;
}
