// UpdateUser's proofs of the current credentials (contract §4.4, §5.1): the
// current password, or a code of the enabled second factor. They are held to
// the login id's lockout exactly as a sign-in is: while the id is locked they
// are refused even when right (failed_precondition, not counted again), and a
// wrong one counts like a failed sign-in (severity by count, bb.user.lock and
// the end of every session at the 11th); the count commits although the call
// fails. Only the answer differs: invalid_argument names the wrong field.
import type { CallAudit } from "../../governance/index.ts";
import { activeLock } from "../auth/lockout.ts";
import { lockedRefusal, Refusal, refuseWrongCredential } from "../auth/login-refusal.ts";
import { checkOtpCode, INVALID_CODE } from "../auth/second-factor.ts";
import { invalidArgument, type SecretBox } from "../../platform/index.ts";
import { verifyPassword } from "./password-hash.ts";
import type { UserRow } from "./user.store.ts";

export async function proveCurrentPassword(audit: CallAudit, user: UserRow, password: string): Promise<void> {
  await refuseWhileLocked(audit, user.loginId);
  if (await verifyPassword(user.passwordHash, password)) return;
  throw await refuseWrongCredential(audit, user.loginId, Refusal.wrongCurrentPassword, invalidArgument("current_password is wrong"));
}

/** A current code of the enabled factor, accepted once. */
export async function proveCurrentOtp(audit: CallAudit, secrets: SecretBox, user: UserRow, otpCode: string): Promise<void> {
  await refuseWhileLocked(audit, user.loginId);
  if (await checkOtpCode(audit.tx, secrets, user.id, otpCode)) return;
  throw await refuseWrongCredential(audit, user.loginId, Refusal.wrongSecondFactor, invalidArgument(`otp_code: ${INVALID_CODE}`));
}

async function refuseWhileLocked(audit: CallAudit, loginId: string): Promise<void> {
  const lockedUntil = await activeLock(audit.tx, loginId);
  if (lockedUntil) throw lockedRefusal(audit, lockedUntil);
}
