// Refusals of a sign-in, whichever step (contract §1.3, §4.4, §4.5): each is
// recorded as bb.auth.login.fail with its reason. A wrong credential, a
// password or a second factor, counts toward the login id's lockout with the
// severity of its count, and the failure that locks adds bb.user.lock. The
// counts commit with the record although the call fails. UpdateUser's checks
// of the current password or factor count the same way (§5.1).
import { AuditAction, type CallAudit } from "../../governance/index.ts";
import { type Db, failedPrecondition, userName } from "../../platform/index.ts";
import { countFailure, failureSeverity } from "./lockout.ts";
import { admit, hitOf, LOGIN_RATE_LIMIT } from "./rate-limit.ts";
import { takeHit, type Hit, type WindowState } from "./rate-limit.store.ts";

/** Why a sign-in was refused, as recorded in the audit detail and counted by svc_auth_login_total. */
export const Refusal = {
  rateLimited: "rate limited",
  malformed: "malformed login id",
  locked: "locked",
  wrongCredentials: "wrong login id or password",
  passwordSigninDisabled: "password sign-in is disabled",
  wrongSecondFactor: "wrong verification code",
  wrongCurrentPassword: "wrong current password",
  invalidMfaTempToken: "invalid or expired mfa temp token",
  missingSecondFactor: "no verification code",
  wrongEmailCode: "wrong login id or e-mail code",
  emailCodeSigninDisabled: "e-mail code sign-in is disabled",
  passwordAndEmailCode: "both password and e-mail code",
} as const;

/** The svc_auth_login_total status of a refused sign-in. */
export function refusalStatus(audit: CallAudit): "locked" | "rate_limited" | "failure" {
  const reason = audit.detail["reason"];
  if (reason === Refusal.locked) return "locked";
  return reason === Refusal.rateLimited ? "rate_limited" : "failure";
}

/** Starts the record of a sign-in attempt: a refusal unless the sign-in succeeds. */
export function beginLoginAttempt(audit: CallAudit): void {
  audit.action = AuditAction.loginFail;
  audit.keepChangesOnError = true;
}

/** Records why the sign-in was refused; answers the error to throw. */
export function refuse(audit: CallAudit, reason: string, error: Error): Error {
  audit.detail = { ...audit.detail, reason };
  return error;
}

/** Counts one sign-in request of the client IP (§4.5); `sideDb` commits it whatever the call does. */
export async function takeLoginRateLimit(sideDb: Db, audit: CallAudit, clientIp: string): Promise<void> {
  admitLoginRequest(audit, await takeHit(sideDb, loginHit(clientIp)));
}

/** The hit a sign-in request of the client IP takes. */
export function loginHit(clientIp: string): Hit {
  return hitOf(LOGIN_RATE_LIMIT, clientIp);
}

/** Refuses the sign-in request when its hit was not counted: the client IP's window is full. */
export function admitLoginRequest(audit: CallAudit, window: WindowState): void {
  try {
    admit(LOGIN_RATE_LIMIT, window);
  } catch (error) {
    throw refuse(audit, Refusal.rateLimited, error as Error);
  }
}

/**
 * Counts a wrong credential toward the lockout (the count commits although
 * the call fails); answers the refusal to throw: `wrong`, or the lock.
 */
export async function refuseWrongCredential(audit: CallAudit, loginId: string, reason: string, wrong: Error): Promise<Error> {
  audit.keepChangesOnError = true;
  const outcome = await countFailure(audit.tx, loginId);
  if (outcome.kind === "locked") return lockedRefusal(audit, outcome.lockedUntil);
  audit.severity = failureSeverity(outcome.failureCount);
  audit.detail = { ...audit.detail, failureCount: outcome.failureCount };
  if (!outcome.lockedUntil) return refuse(audit, reason, wrong);
  audit.extra.push({ action: AuditAction.userLock, severity: "CRITICAL", resource: userName(loginId), detail: { lockedUntil: outcome.lockedUntil.toISOString() } });
  return refuse(audit, reason, lockedMessage(outcome.lockedUntil));
}

/** The refusal of a locked login id, not counted again. */
export function lockedRefusal(audit: CallAudit, lockedUntil: Date): Error {
  audit.severity = "WARNING";
  return refuse(audit, Refusal.locked, lockedMessage(lockedUntil));
}

function lockedMessage(lockedUntil: Date): Error {
  const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - Date.now()) / 1000));
  return failedPrecondition(`sign-in for this login id is locked until ${lockedUntil.toISOString()} after repeated failures`, {
    details: { lockedUntil: lockedUntil.toISOString() },
    headers: { "retry-after": String(seconds) },
  });
}
