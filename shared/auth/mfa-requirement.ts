// Who must have a second factor (contract §5.1, specification "Two-factor"):
// local users without one, when require_2fa is on (workspace administrators
// exempt) or when they belong to a group that requires it (no exemption).
// Users of an identity provider are never asked by this service.
import type { CommonQueryMethods } from "slonik";
import { inRequire2faGroup } from "../group/group-member.store.ts";
import { isWorkspaceAdmin } from "../iam/authorize.ts";
import type { WorkspaceProfile } from "../settings/workspace-profile.ts";
import type { UserRow } from "../user/user.store.ts";

/** True when the user must have a second factor (whether or not it has one). */
export async function mfaRequired(db: CommonQueryMethods, profile: Pick<WorkspaceProfile, "require2fa">, user: UserRow): Promise<boolean> {
  if (user.source !== "LOCAL" || user.type !== "END_USER") return false;
  if (await inRequire2faGroup(db, user.loginId)) return true;
  return profile.require2fa && !(await isWorkspaceAdmin(db, { loginId: user.loginId }));
}

/** True when the user must enrol a second factor before doing anything else. */
export async function mfaEnrollmentDue(db: CommonQueryMethods, profile: Pick<WorkspaceProfile, "require2fa">, user: UserRow): Promise<boolean> {
  return !user.mfaEnabled && (await mfaRequired(db, profile, user));
}
