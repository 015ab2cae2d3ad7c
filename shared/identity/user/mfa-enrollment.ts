// A user's own second factor through UpdateUser (contract §5.1):
// regenerate_temp_mfa_secret starts (or restarts) enrolment with a pending
// secret; mfa_enabled true with a code of that secret makes it the factor and
// answers 10 recovery codes once; regenerate_recovery_codes (with a code of
// the factor) replaces them; mfa_enabled false removes the factor, unless the
// user must have one. Whatever touches an enabled factor first proves the
// caller holds it (credential-check.ts): a code of the factor or the current
// password, and the password alone when enabling a replacement, whose
// otp_code is a code of the new secret. Secrets are stored sealed; codes of
// the enabled factor are accepted once.
import { AuditAction, type CallAudit, type WorkspaceProfile } from "../../governance/index.ts";
import { clearMfa, enableMfaSecret, findMfaSecrets, replaceRecoveryCodes, setTempMfaSecret } from "../auth/mfa.store.ts";
import { mfaRequired } from "../auth/mfa-requirement.ts";
import { newRecoveryCodes } from "../auth/recovery-codes.ts";
import { INVALID_CODE } from "../auth/second-factor.ts";
import { clearPendingMfaEnrollment } from "../auth/session.store.ts";
import { newTotpEnrollment, totpTimeStep, type TotpEnrollment } from "../auth/totp.ts";
import { failedPrecondition, invalidArgument, type SecretBox } from "../../platform/index.ts";
import { proveCurrentOtp, proveCurrentPassword } from "./credential-check.ts";
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

/** Whether the change touches the second factor at all. */
export function isMfaChange(change: MfaChange): boolean {
  return change.enable !== undefined || change.regenerateTempMfaSecret || change.regenerateRecoveryCodes;
}

/**
 * Applies the change after checking everything it needs. Nothing is written
 * before the proof of the enabled factor passes: a wrong one keeps only its
 * counted failure.
 */
export async function changeMfa(audit: CallAudit, secrets: SecretBox, profile: WorkspaceProfile, user: UserRow, change: MfaChange): Promise<MfaReveal> {
  if (change.enable !== undefined) audit.action = change.enable ? AuditAction.mfaEnable : AuditAction.mfaDisable;
  await checkPreconditions(audit, profile, user, change);
  if (user.mfaEnabled) await proveFactorHolder(audit, secrets, user, change);

  const tx = audit.tx;
  const reveal: MfaReveal = {};
  if (change.regenerateRecoveryCodes) {
    audit.detail = { ...audit.detail, recoveryCodes: "regenerated" };
    reveal.recoveryCodes = await newCodes(audit, user);
  }
  if (change.enable === false) await clearMfa(tx, user.id);
  if (change.enable === true) reveal.recoveryCodes = await enableMfa(audit, secrets, user, change.otpCode);
  if (change.regenerateTempMfaSecret) {
    reveal.enrollment = await newTotpEnrollment(profile.title, user.loginId);
    await setTempMfaSecret(tx, user.id, secrets.seal(reveal.enrollment.secret));
  }
  return reveal;
}

async function checkPreconditions(audit: CallAudit, profile: WorkspaceProfile, user: UserRow, change: MfaChange): Promise<void> {
  if (change.enable === false) {
    if (!user.mfaEnabled) throw failedPrecondition("the second factor is not enabled");
    if (await mfaRequired(audit.tx, profile, user)) {
      throw failedPrecondition("this user must keep a second factor (require_2fa); enrol a new one with regenerate_temp_mfa_secret instead");
    }
  }
  if (change.regenerateRecoveryCodes) {
    if (!user.mfaEnabled) throw failedPrecondition("the second factor is not enabled; recovery codes come with it");
    if (!change.otpCode) throw invalidArgument("otp_code is required to regenerate the recovery codes");
  }
}

/** One proof per call that the caller holds the enabled factor: a code of it, or the current password. */
async function proveFactorHolder(audit: CallAudit, secrets: SecretBox, user: UserRow, change: MfaChange): Promise<void> {
  const replacing = change.enable === true;
  const otpCode = replacing ? "" : change.otpCode; // when enabling, otp_code belongs to the new secret
  if (otpCode) return proveCurrentOtp(audit, secrets, user, otpCode);
  if (change.currentPassword) return proveCurrentPassword(audit, user, change.currentPassword);
  if (replacing) throw invalidArgument("current_password is required to enable a new second factor in place of the enabled one (otp_code is a code of the new secret)");
  const purpose = change.enable === false ? "to disable the second factor" : "to replace the enabled second factor";
  throw invalidArgument(`otp_code or current_password is required ${purpose}`);
}

async function enableMfa(audit: CallAudit, secrets: SecretBox, user: UserRow, otpCode: string): Promise<string[]> {
  const tx = audit.tx;
  const { tempSecret } = await findMfaSecrets(tx, user.id);
  if (!tempSecret) throw failedPrecondition("no second factor is being enrolled; call UpdateUser with regenerate_temp_mfa_secret first");
  if (!otpCode) throw invalidArgument("otp_code is required: a current code of temp_otp_secret");
  const timeStep = await totpTimeStep(secrets.open(tempSecret), otpCode);
  if (timeStep === undefined) throw invalidArgument(`otp_code: ${INVALID_CODE}`);
  await enableMfaSecret(tx, user.id, tempSecret, timeStep);
  await clearPendingMfaEnrollment(tx, user.id);
  return newCodes(audit, user);
}

async function newCodes(audit: CallAudit, user: UserRow): Promise<string[]> {
  const { codes, hashes } = newRecoveryCodes();
  await replaceRecoveryCodes(audit.tx, user.id, hashes);
  return codes;
}
