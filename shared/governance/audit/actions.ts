// Audit actions that domain code writes itself, beside the per-RPC actions
// declared by the `audit` method option (specification "Events", contract §8.2).
export const AuditAction = {
  login: "bb.auth.login",
  loginFail: "bb.auth.login.fail",
  logout: "bb.auth.logout",
  passwordChange: "bb.auth.password.change",
  passwordReset: "bb.auth.password.reset",
  mfaEnable: "bb.auth.mfa.enable",
  mfaDisable: "bb.auth.mfa.disable",
  mfaReset: "bb.auth.mfa.reset",
  userLock: "bb.user.lock",
  userUnlock: "bb.user.unlock",
  roleAssign: "bb.role.assign",
  roleRevoke: "bb.role.revoke",
  /** A user created by its first sign-in through an identity provider, or by directory sync. */
  userCreate: "bb.users.create",
  // Changes by directory sync (shared/scim), which is not an RPC.
  userUpdate: "bb.users.update",
  userDelete: "bb.users.delete",
  userUndelete: "bb.users.undelete",
  groupCreate: "bb.groups.create",
  groupUpdate: "bb.groups.update",
  groupDelete: "bb.groups.delete",
} as const;

export type Severity = "INFO" | "WARNING" | "ERROR" | "CRITICAL";

/** The actor of work the server does by itself (scheduled runs, lock expiry). */
export const SYSTEM_ACTOR = "system";
/** The actor of a call made without a credential. */
export const ANONYMOUS_ACTOR = "anonymous";
/** The actor of the changes a directory makes through directory sync (SCIM). */
export const SCIM_ACTOR = "scim";
