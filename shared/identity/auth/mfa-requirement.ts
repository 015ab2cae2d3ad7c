// Who must have a second factor (contract §5.1, specification "Two-factor"):
// local users without one, when require_2fa is on (workspace administrators
// exempt) or when they belong to a group that requires it (no exemption).
// Users of an identity provider are never asked by this service.
import type { CommonQueryMethods } from "slonik";
import { inRequire2faGroup } from "../group/group-member.store.ts";
import { isWorkspaceAdmin } from "../iam/authorize.ts";
import { storedIam } from "../iam/iam-reads.ts";
import type { WorkspaceProfile } from "../../governance/index.ts";
import type { UserRow } from "../user/user.store.ts";

/** What a sign-in already read about its user (sign-in-facts.store.ts), not to be read again. */
export interface KnownMfaFacts {
  inRequire2faGroup?: boolean;
}

/** True when the user must have a second factor (whether or not it has one). */
export async function mfaRequired(
  db: CommonQueryMethods,
  profile: Pick<WorkspaceProfile, "require2fa">,
  user: UserRow,
  known: KnownMfaFacts = {},
): Promise<boolean> {
  if (user.source !== "LOCAL" || user.type !== "END_USER") return false;
  if (known.inRequire2faGroup ?? (await inRequire2faGroup(db, user.loginId))) return true;
  return profile.require2fa && !(await isWorkspaceAdmin(storedIam(db), { loginId: user.loginId }));
}

/** True when the user must enrol a second factor before doing anything else. */
export async function mfaEnrollmentDue(
  db: CommonQueryMethods,
  profile: Pick<WorkspaceProfile, "require2fa">,
  user: UserRow,
  known: KnownMfaFacts = {},
): Promise<boolean> {
  return !user.mfaEnabled && (await mfaRequired(db, profile, user, known));
}
