// UpdateUser (contract §5.1): a user changes its own title, e-mail and
// password (the current password is required and a wrong one counts toward
// the lockout); holders of bb.users.update change other users, and a password
// they set must be changed at the user's next sign-in.
import { AuditAction } from "../audit/actions.ts";
import type { CallAudit } from "../audit/call-audit.ts";
import { countFailure } from "../auth/lockout.ts";
import type { Principal } from "../auth/principal.ts";
import { revokePrincipalSessions } from "../auth/session.store.ts";
import { requirePermission, WORKSPACE } from "../iam/authorize.ts";
import { snakeCase } from "../list/field-name.ts";
import { invalidArgument, notFound, permissionDenied } from "../platform/errors.ts";
import type { WorkspaceProfile } from "../settings/workspace-profile.ts";
import { hashPassword, verifyPassword } from "./password-hash.ts";
import { parseEmail } from "./email.ts";
import { assertPasswordAllowed } from "./password-policy.ts";
import { findUserByLoginId, setPassword, updateProfile, type UserRow } from "./user.store.ts";

export interface UserUpdate {
  loginId: string;
  /** Field paths in snake or camel case. */
  paths: readonly string[];
  title: string;
  email: string;
  password: string;
  currentPassword: string;
}

const EDITABLE = ["title", "email", "password"] as const;
const OUTPUT_ONLY = new Set(["name", "login_id", "state", "mfa_enabled", "create_time", "last_login_time", "last_change_password_time", "locked", "locked_until", "source", "type"]);

export async function updateUser(audit: CallAudit, caller: Principal, profile: WorkspaceProfile, update: UserUpdate): Promise<UserRow> {
  const fields = maskFields(update.paths);
  const tx = audit.tx;
  const user = await findUserByLoginId(tx, update.loginId);
  const self = update.loginId === caller.loginId;
  if (!self) await requirePermission(tx, caller, "bb.users.update", WORKSPACE);
  if (!user) throw notFound(`user "${update.loginId}" does not exist`);
  if (caller.pendingPasswordReset && (!self || fields.some((f) => f !== "password"))) {
    throw permissionDenied("password change required: change only your own password first");
  }
  if (fields.includes("title") || fields.includes("email")) {
    await updateProfile(tx, user.id, {
      title: fields.includes("title") ? update.title : user.title,
      email: fields.includes("email") ? parseEmail(update.email, "user.email") : user.email,
    });
  }
  if (fields.includes("password")) await changePassword(audit, caller, profile, user, self, update);
  return (await findUserByLoginId(tx, update.loginId))!;
}

async function changePassword(audit: CallAudit, caller: Principal, profile: WorkspaceProfile, user: UserRow, self: boolean, update: UserUpdate): Promise<void> {
  const tx = audit.tx;
  audit.action = self ? AuditAction.passwordChange : AuditAction.passwordReset;
  if (self) {
    if (!(await verifyPassword(user.passwordHash, update.currentPassword))) {
      audit.keepChangesOnError = true; // the failure counts toward the lockout
      await countFailure(tx, user.loginId);
      throw invalidArgument("current_password is wrong");
    }
    if (update.password === update.currentPassword) throw invalidArgument("user.password must differ from the current password");
  }
  assertPasswordAllowed(update.password, profile.passwordRestriction, "user.password");
  await setPassword(tx, user.id, await hashPassword(update.password), !self);
  await revokePrincipalSessions(tx, user.id, self ? caller.sessionFamilyId : undefined);
}

function maskFields(paths: readonly string[]): (typeof EDITABLE)[number][] {
  if (paths.length === 0) throw invalidArgument("update_mask is required; editable fields: title, email, password");
  return paths.map((path) => {
    const snake = snakeCase(path.replace(/^user\./, ""));
    if (OUTPUT_ONLY.has(snake)) throw invalidArgument(`update_mask: field ${path} is output only`);
    const field = EDITABLE.find((f) => f === snake);
    if (!field) throw invalidArgument(`update_mask: unknown field "${path}"; editable fields: ${EDITABLE.join(", ")}`);
    return field;
  });
}
