// A user's own second factor through UpdateUser (contract §5.1):
// regenerate_temp_mfa_secret starts (or restarts) enrolment with a pending
// secret; mfa_enabled true with a code of that secret makes it the factor and
// answers 10 recovery codes once; regenerate_recovery_codes (with a code of
// the factor) replaces them; mfa_enabled false (with a code or the current
// password) removes the factor, unless the user must have one. Secrets are
// stored sealed; codes of the enabled factor are accepted once.
import { AuditAction } from "../audit/actions.ts";
import type { CallAudit } from "../audit/call-audit.ts";
import { clearMfa, enableMfaSecret, findMfaSecrets, replaceRecoveryCodes, setTempMfaSecret } from "../auth/mfa.store.ts";
import { mfaRequired } from "../auth/mfa-requirement.ts";
import { newRecoveryCodes } from "../auth/recovery-codes.ts";
import { checkOtpCode, INVALID_CODE } from "../auth/second-factor.ts";
import { clearPendingMfaEnrollment } from "../auth/session.store.ts";
import { newTotpEnrollment, totpTimeStep, type TotpEnrollment } from "../auth/totp.ts";
import { failedPrecondition, invalidArgument } from "../platform/errors.ts";
import type { SecretBox } from "../secrets/secret-box.ts";
import type { WorkspaceProfile } from "../settings/workspace-profile.ts";
import { countedRefusal } from "./credential-check.ts";
import { verifyPassword } from "./password-hash.ts";
import type { UserRow } from "./user.store.ts";

export interface MfaChange {
  /** The new mfa_enabled when the mask names it. */
  enable: boolean | undefined;
  otpCode: string;
  currentPassword: string;
  regenerateTempMfaSecret: boolean;
  regenerateRecoveryCodes: boolean;
}

/** What the call answers once: a pending secret, new recovery codes. */
export interface MfaReveal {
  enrollment?: TotpEnrollment;
  recoveryCodes?: string[];
}

export async function changeMfa(audit: CallAudit, secrets: SecretBox, profile: WorkspaceProfile, user: UserRow, change: MfaChange): Promise<MfaReveal> {
  const reveal: MfaReveal = {};
  // Checks of the enabled factor come first: a wrong code keeps only its counted failure.
  if (change.regenerateRecoveryCodes) reveal.recoveryCodes = await regenerateRecoveryCodes(audit, secrets, user, change.otpCode);
  if (change.enable === false) await disableMfa(audit, secrets, profile, user, change);
  if (change.enable === true) reveal.recoveryCodes = await enableMfa(audit, secrets, user, change.otpCode);
  if (change.regenerateTempMfaSecret) {
    reveal.enrollment = await newTotpEnrollment(profile.title, user.loginId);
    await setTempMfaSecret(audit.tx, user.id, secrets.seal(reveal.enrollment.secret));
  }
  return reveal;
}

async function enableMfa(audit: CallAudit, secrets: SecretBox, user: UserRow, otpCode: string): Promise<string[]> {
  const tx = audit.tx;
  audit.action = AuditAction.mfaEnable;
  const { tempSecret } = await findMfaSecrets(tx, user.id);
  if (!tempSecret) throw failedPrecondition("no second factor is being enrolled; call UpdateUser with regenerate_temp_mfa_secret first");
  if (!otpCode) throw invalidArgument("otp_code is required: a current code of temp_otp_secret");
  const timeStep = await totpTimeStep(secrets.open(tempSecret), otpCode);
  if (timeStep === undefined) throw invalidArgument(`otp_code: ${INVALID_CODE}`);
  await enableMfaSecret(tx, user.id, tempSecret, timeStep);
  await clearPendingMfaEnrollment(tx, user.id);
  return newCodes(audit, user);
}

async function disableMfa(audit: CallAudit, secrets: SecretBox, profile: WorkspaceProfile, user: UserRow, change: MfaChange): Promise<void> {
  const tx = audit.tx;
  audit.action = AuditAction.mfaDisable;
  if (!user.mfaEnabled) throw failedPrecondition("the second factor is not enabled");
  if (await mfaRequired(tx, profile, user)) {
    throw failedPrecondition("this user must keep a second factor (require_2fa); enrol a new one with regenerate_temp_mfa_secret instead");
  }
  if (change.otpCode) {
    if (!(await checkOtpCode(tx, secrets, user.id, change.otpCode))) throw await countedRefusal(audit, user.loginId, `otp_code: ${INVALID_CODE}`);
  } else if (change.currentPassword) {
    if (!(await verifyPassword(user.passwordHash, change.currentPassword))) throw await countedRefusal(audit, user.loginId, "current_password is wrong");
  } else {
    throw invalidArgument("otp_code or current_password is required to disable the second factor");
  }
  await clearMfa(tx, user.id);
}

async function regenerateRecoveryCodes(audit: CallAudit, secrets: SecretBox, user: UserRow, otpCode: string): Promise<string[]> {
  if (!user.mfaEnabled) throw failedPrecondition("the second factor is not enabled; recovery codes come with it");
  if (!otpCode) throw invalidArgument("otp_code is required to regenerate the recovery codes");
  if (!(await checkOtpCode(audit.tx, secrets, user.id, otpCode))) throw await countedRefusal(audit, user.loginId, `otp_code: ${INVALID_CODE}`);
  audit.detail = { ...audit.detail, recoveryCodes: "regenerated" };
  return newCodes(audit, user);
}

async function newCodes(audit: CallAudit, user: UserRow): Promise<string[]> {
  const { codes, hashes } = newRecoveryCodes();
  await replaceRecoveryCodes(audit.tx, user.id, hashes);
  return codes;
}
