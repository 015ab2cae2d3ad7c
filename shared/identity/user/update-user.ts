// UpdateUser (contract §5.1): a user changes its own title, e-mail (within
// the workspace's domains while they are enforced), password (the current
// password is required) and second factor (mfa-enrollment.ts),
// and a service account rotates its own key; holders of bb.users.update
// change other users' title, e-mail and password (a password they set must be
// changed at the user's next sign-in) and rotate service accounts' keys. A
// restricted session may only do what it is restricted to: change the
// password, or enrol a factor. Proofs of the current credentials come before
// any write, so that a wrong one commits nothing but its counted failure.
import { AuditAction, type CallAudit, type WorkspaceProfile } from "../../governance/index.ts";
import type { Principal } from "../auth/principal.ts";
import { requirePermission, WORKSPACE } from "../iam/authorize.ts";
import { storedIam } from "../iam/iam-reads.ts";
import {
  failedPrecondition,
  invalidArgument,
  maskFields,
  type MaskSpec,
  notFound,
  parseEmail,
  permissionDenied,
  type SecretBox,
} from "../../platform/index.ts";
import { proveCurrentPassword } from "./credential-check.ts";
import { changeMfa, isMfaChange, type MfaChange, type MfaReveal } from "./mfa-enrollment.ts";
import { hashPassword } from "./password-hash.ts";
import { assertPasswordAllowed } from "./password-policy.ts";
import { replacePassword } from "./replace-password.ts";
import { issueServiceKey } from "./service-key.ts";
import { writeUserProfile } from "./user-profile.ts";
import { findUserByLoginId, type UserRow } from "./user.store.ts";

export interface UserUpdate {
  loginId: string;
  /** Field paths in snake or camel case. */
  paths: readonly string[];
  title: string;
  email: string;
  password: string;
  currentPassword: string;
  mfaEnabled: boolean;
  otpCode: string;
  regenerateTempMfaSecret: boolean;
  regenerateRecoveryCodes: boolean;
  regenerateServiceKey: boolean;
}

export interface UserUpdateResult {
  user: UserRow;
  /** Answered once: a pending TOTP secret, new recovery codes. */
  reveal: MfaReveal;
  /** Answered once: a service account's new key. */
  serviceKey?: string;
}

type Field = "title" | "email" | "password" | "mfa_enabled";
const MASK: MaskSpec<Field> = {
  resource: "user",
  editable: ["title", "email", "password", "mfa_enabled"],
  outputOnly: [
    "name", "login_id", "state", "create_time", "last_login_time", "last_change_password_time", "locked", "locked_until", "source", "type",
    "service_key", "groups", "temp_otp_secret", "temp_otp_uri", "temp_otp_qr_code", "temp_recovery_codes",
  ],
  emptyAllowedWith: "a regenerate flag",
};

export async function updateUser(audit: CallAudit, caller: Principal, secrets: SecretBox, profile: WorkspaceProfile, update: UserUpdate): Promise<UserUpdateResult> {
  const fields = userMaskFields(update);
  const mfaChange: MfaChange = { ...update, enable: fields.includes("mfa_enabled") ? update.mfaEnabled : undefined };
  const mfa = isMfaChange(mfaChange);
  const tx = audit.tx;
  const user = await findUserByLoginId(tx, update.loginId);
  const self = update.loginId === caller.loginId;
  if (!self) await requirePermission(storedIam(tx), caller, "bb.users.update", WORKSPACE);
  if (!user) throw notFound(`user "${update.loginId}" does not exist`);
  if (!self && mfa) throw permissionDenied("only the user itself changes its second factor; an administrator resets it with ResetMfa");
  if (update.regenerateServiceKey && user.type !== "SERVICE_ACCOUNT") {
    throw failedPrecondition(`regenerate_service_key: "${user.loginId}" is not a service account; only service accounts have keys`);
  }
  if (fields.includes("password") && user.type === "SERVICE_ACCOUNT") {
    throw failedPrecondition(`user.password: "${user.loginId}" is a service account; it signs in with its key, never a password`);
  }
  assertAllowedWhileRestricted(caller, self, fields, update);

  const email = fields.includes("email") ? parseEmail(update.email, "user.email") : user.email;
  if (fields.includes("password")) await checkNewPassword(audit, profile, user, self, update);
  const reveal = mfa ? await changeMfa(audit, secrets, profile, user, mfaChange) : {};
  if (fields.includes("title") || fields.includes("email")) {
    await writeUserProfile(tx, user, { title: fields.includes("title") ? update.title : user.title, email });
  }
  if (fields.includes("password")) {
    await replacePassword(tx, user, await hashPassword(update.password), { requireReset: !self, keepSessionFamilyId: self ? caller.sessionFamilyId : undefined });
  }
  const serviceKey = update.regenerateServiceKey ? await issueServiceKey(tx, user.id) : undefined;
  return { user: (await findUserByLoginId(tx, update.loginId))!, reveal, serviceKey };
}

/** A restricted session may only change its own password, or only enrol a second factor. */
function assertAllowedWhileRestricted(caller: Principal, self: boolean, fields: readonly Field[], update: UserUpdate): void {
  const otherFlags = update.regenerateServiceKey || update.regenerateRecoveryCodes;
  if (caller.restriction === "password_change") {
    const passwordOnly = !otherFlags && !update.regenerateTempMfaSecret && fields.every((f) => f === "password");
    if (!self || !passwordOnly) throw permissionDenied("password change required: change only your own password first");
  }
  if (caller.restriction === "mfa_enrollment") {
    const enrolling = !otherFlags && fields.every((f) => f === "mfa_enabled") && (fields.length === 0 || update.mfaEnabled);
    if (!self || !enrolling) throw permissionDenied("second factor enrolment required: enrol a TOTP factor first (regenerate_temp_mfa_secret, then mfa_enabled)");
  }
}

/** The checks of a new password: for a self-service change, the current one first (counted when wrong, contract §4.4). */
async function checkNewPassword(audit: CallAudit, profile: WorkspaceProfile, user: UserRow, self: boolean, update: UserUpdate): Promise<void> {
  audit.action = self ? AuditAction.passwordChange : AuditAction.passwordReset;
  if (self) {
    if (!update.currentPassword) throw invalidArgument("current_password is required to change your own password");
    await proveCurrentPassword(audit, user, update.currentPassword);
    if (update.password === update.currentPassword) throw invalidArgument("user.password must differ from the current password");
  }
  assertPasswordAllowed(update.password, profile.passwordRestriction, "user.password");
}

function userMaskFields(update: UserUpdate): Field[] {
  const flagged = update.regenerateTempMfaSecret || update.regenerateRecoveryCodes || update.regenerateServiceKey;
  const fields = [...maskFields(update.paths, MASK, flagged)];
  if (fields.includes("mfa_enabled") && (fields.length > 1 || flagged)) {
    throw invalidArgument("update_mask: mfaEnabled is changed alone, without other fields or regenerate flags");
  }
  return fields;
}
