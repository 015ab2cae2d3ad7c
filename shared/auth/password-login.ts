// Password sign-in (contract §4.2, §4.4, §4.5): rate limit per client IP,
// lockout per login id, argon2id verification with rehash, a new session.
// Every refusal is recorded as bb.auth.login.fail with its reason, and the
// failure count it changed commits with that record.
import { AuditAction } from "../audit/actions.ts";
import type { CallAudit } from "../audit/call-audit.ts";
import { isWorkspaceAdmin } from "../iam/authorize.ts";
import type { Db } from "../platform/db.ts";
import { failedPrecondition, permissionDenied, unauthenticated } from "../platform/errors.ts";
import { normalizeLoginId } from "../platform/names.ts";
import type { WorkspaceProfile } from "../settings/workspace-profile.ts";
import { hashPassword, needsRehash, verifyPassword } from "../user/password-hash.ts";
import { passwordChangeDue } from "../user/password-rotation.ts";
import { findUserByLoginId, replacePasswordHash, touchLastLogin, type UserRow } from "../user/user.store.ts";
import { activeLock, countFailure, failureSeverity, settleSuccess } from "./lockout.ts";
import { userName } from "./principal.ts";
import { LOGIN_RATE_LIMIT, takeRateLimit } from "./rate-limit.ts";
import { issueSession, sessionPolicyOf, type ClientFacts, type IssuedSession } from "./sessions.ts";

export interface LoginInput {
  loginId: string;
  password: string;
}

export interface LoginResult {
  user: UserRow;
  session: IssuedSession;
  requireResetPassword: boolean;
}

const WRONG_CREDENTIALS = "invalid login id or password";

/** Why a sign-in was refused, as recorded in the audit detail and counted by svc_auth_login_total. */
export const Refusal = {
  rateLimited: "rate limited",
  malformed: "malformed login id",
  locked: "locked",
  wrongCredentials: "wrong login id or password",
  passwordSigninDisabled: "password sign-in is disabled",
} as const;

/** The svc_auth_login_total status of a refused sign-in. */
export function refusalStatus(audit: CallAudit): "locked" | "rate_limited" | "failure" {
  const reason = audit.detail["reason"];
  if (reason === Refusal.locked) return "locked";
  return reason === Refusal.rateLimited ? "rate_limited" : "failure";
}

/** `sideDb` carries the rate-limit counter, which commits on its own. */
export async function passwordLogin(sideDb: Db, audit: CallAudit, profile: WorkspaceProfile, client: ClientFacts, input: LoginInput): Promise<LoginResult> {
  const loginId = normalizeLoginId(input.loginId);
  audit.action = AuditAction.loginFail;
  audit.actor = userName(loginId ?? input.loginId);
  audit.keepChangesOnError = true;
  const refuse = (reason: string, error: Error) => {
    audit.detail = { ...audit.detail, reason };
    return error;
  };
  try {
    await takeRateLimit(sideDb, LOGIN_RATE_LIMIT, client.clientIp);
  } catch (error) {
    throw refuse(Refusal.rateLimited, error as Error);
  }
  if (!loginId) throw refuse(Refusal.malformed, unauthenticated(WRONG_CREDENTIALS));
  const tx = audit.tx;
  const earlyLock = await activeLock(tx, loginId);
  if (earlyLock) throw refuse(Refusal.locked, lockedError(earlyLock, audit));

  const user = await findUserByLoginId(tx, loginId);
  const usable = user && user.state === "ACTIVE" && user.type === "END_USER" ? user : undefined;
  const matches = await verifyPassword(usable?.passwordHash, input.password);
  if (!matches || !usable) {
    const outcome = await countFailure(tx, loginId);
    if (outcome.kind === "locked") throw refuse(Refusal.locked, lockedError(outcome.lockedUntil, audit));
    audit.severity = failureSeverity(outcome.failureCount);
    audit.detail = { failureCount: outcome.failureCount };
    if (!outcome.lockedUntil) throw refuse(Refusal.wrongCredentials, unauthenticated(WRONG_CREDENTIALS));
    audit.extra.push({ action: AuditAction.userLock, severity: "CRITICAL", resource: userName(loginId), detail: { lockedUntil: outcome.lockedUntil.toISOString() } });
    throw refuse(Refusal.wrongCredentials, lockedMessage(outcome.lockedUntil));
  }
  const lockedUntil = await settleSuccess(tx, loginId);
  if (lockedUntil) throw refuse(Refusal.locked, lockedError(lockedUntil, audit));
  if (profile.disallowPasswordSignin && !(await isWorkspaceAdmin(tx, { loginId }))) {
    throw refuse(Refusal.passwordSigninDisabled, permissionDenied("password sign-in is disabled for this workspace; sign in through an identity provider"));
  }
  return completeLogin(audit, profile, client, usable, input.password);
}

async function completeLogin(audit: CallAudit, profile: WorkspaceProfile, client: ClientFacts, user: UserRow, password: string): Promise<LoginResult> {
  const tx = audit.tx;
  if (user.passwordHash && needsRehash(user.passwordHash)) await replacePasswordHash(tx, user.id, await hashPassword(password));
  await touchLastLogin(tx, user.id);
  const session = await issueSession(tx, user.id, sessionPolicyOf(profile), client);
  audit.action = AuditAction.login;
  audit.keepChangesOnError = false;
  return { user, session, requireResetPassword: passwordChangeDue(user, profile.passwordRestriction.passwordRotationMs) };
}

function lockedError(lockedUntil: Date, audit: CallAudit): Error {
  audit.severity = "WARNING";
  return lockedMessage(lockedUntil);
}

function lockedMessage(lockedUntil: Date): Error {
  const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - Date.now()) / 1000));
  return failedPrecondition(`sign-in for this login id is locked until ${lockedUntil.toISOString()} after repeated failures`, {
    details: { lockedUntil: lockedUntil.toISOString() },
    headers: { "retry-after": String(seconds) },
  });
}
