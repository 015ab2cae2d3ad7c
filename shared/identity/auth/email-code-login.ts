// Sign-in with an e-mail code (contract §4.2, §4.4, §4.5): `loginId` (the
// login id, or the e-mail address of exactly one active local end user) with
// the code SendEmailCode mailed, only while allow_email_code_signin is on.
// The code stands in for the password: a user with a second factor still
// gets the second step, and a wrong code counts toward the login id's lockout
// as a wrong password does. disallow_password_signin does not apply: a mailed
// code is not a password.
import type { CommonQueryMethods } from "slonik";
import type { CallAudit, WorkspaceProfile } from "../../governance/index.ts";
import { type Db, failedPrecondition, invalidArgument, unauthenticated, userName } from "../../platform/index.ts";
import { findActiveLocalUsersByEmail, findUserByLoginId, type UserRow } from "../user/user.store.ts";
import { checkEmailCode, EMAIL_CODE_DISABLED } from "./email-code.ts";
import { finishFirstStep, openLoginAttempt, type LoginResult } from "./first-step.ts";
import { lockForAttempt, settleSuccess } from "./lockout.ts";
import { lockedRefusal, Refusal, refuse, refuseWrongCredential, takeLoginRateLimit } from "./login-refusal.ts";
import type { ClientFacts } from "./sessions.ts";

export interface EmailCodeLoginInput {
  loginId: string;
  emailCode: string;
  password: string;
}

const WRONG_CODE = "invalid login id or e-mail code";

/** `sideDb` carries the rate-limit counter, which commits on its own. */
export async function emailCodeLogin(sideDb: Db, audit: CallAudit, profile: WorkspaceProfile, client: ClientFacts, input: EmailCodeLoginInput): Promise<LoginResult> {
  const { loginId: typed } = await openLoginAttempt(audit, input.loginId, WRONG_CODE, () => takeLoginRateLimit(sideDb, audit, client.clientIp));
  audit.detail = { method: "email code" };
  if (!profile.allowEmailCodeSignin) throw refuse(audit, Refusal.emailCodeSigninDisabled, failedPrecondition(EMAIL_CODE_DISABLED));
  if (input.password) throw refuse(audit, Refusal.passwordAndEmailCode, invalidArgument("send either password or email_code, not both"));
  const tx = audit.tx;
  const user = await codeHolder(tx, typed);
  const loginId = user?.loginId ?? typed;
  audit.actor = userName(loginId);
  // Attempts on one login id take turns from here, as second-factor attempts do.
  const lockedUntil = await lockForAttempt(tx, loginId);
  if (lockedUntil) throw lockedRefusal(audit, lockedUntil);
  const wrongCode = () => refuseWrongCredential(audit, loginId, Refusal.wrongEmailCode, unauthenticated(WRONG_CODE));
  if (!user) throw await wrongCode();
  const check = await checkEmailCode(tx, user.id, input.emailCode);
  if (!check.valid) {
    if (check.codeFailures !== undefined) audit.detail = { ...audit.detail, codeFailures: check.codeFailures };
    throw await wrongCode();
  }
  // With a second factor to come, the failure count is reset when that step succeeds.
  if (!user.mfaEnabled) await settleSuccess(tx, loginId); // no lock can have come: this attempt holds the row
  return finishFirstStep(audit, profile, client, user);
}

/**
 * The active local end user the typed id names (the only users codes are
 * mailed to): by login id first, else the only one with that e-mail address.
 */
async function codeHolder(tx: CommonQueryMethods, typed: string): Promise<UserRow | undefined> {
  const byLoginId = await findUserByLoginId(tx, typed);
  if (byLoginId) return byLoginId.state === "ACTIVE" && byLoginId.type === "END_USER" && byLoginId.source === "LOCAL" ? byLoginId : undefined;
  if (!typed.includes("@")) return undefined;
  const byEmail = await findActiveLocalUsersByEmail(tx, typed);
  return byEmail.length === 1 ? byEmail[0] : undefined;
}
