// CreateUser (contract §5.1, §6.5): holders of bb.users.create create users
// and service accounts, optionally with expiring workspace roles; anyone may
// sign up as a workspace member unless disallow_signup is set.
import type { CallAudit, WorkspaceProfile } from "../../governance/index.ts";
import type { Principal } from "../auth/principal.ts";
import { alreadyExists, invalidArgument, parseEmail, parseLoginId, permissionDenied, userName } from "../../platform/index.ts";
import { hasPermission, permissionRequired, WORKSPACE } from "../iam/authorize.ts";
import { storedIam } from "../iam/iam-reads.ts";
import type { RoleGrant } from "../iam/grant-roles.ts";
import { addUser } from "./new-user.ts";
import { hashPassword } from "./password-hash.ts";
import { assertPasswordAllowed } from "./password-policy.ts";
import { issueServiceKey } from "./service-key.ts";
import type { UserRow } from "./user.store.ts";

export interface NewUserInput {
  loginId: string;
  email: string;
  title: string;
  type: UserRow["type"];
  password: string;
  roles: readonly RoleGrant[];
}

export interface CreatedUser {
  user: UserRow;
  /** A service account's API key, shown only in this reply. */
  serviceKey?: string;
}

export async function createUser(audit: CallAudit, caller: Principal | undefined, profile: WorkspaceProfile, input: NewUserInput): Promise<CreatedUser> {
  const tx = audit.tx;
  const admin = caller !== undefined && (await hasPermission(storedIam(tx), caller, "bb.users.create", WORKSPACE));
  if (!admin && (caller !== undefined || profile.disallowSignup)) {
    throw caller ? permissionRequired("bb.users.create", WORKSPACE) : permissionDenied("sign-up is disabled in this workspace; ask an administrator");
  }
  if (!admin && (input.type !== "END_USER" || input.roles.length > 0)) {
    throw permissionDenied("sign-up creates a user without roles; service accounts and roles need bb.users.create");
  }
  const loginId = parseLoginId(input.loginId, "login_id");
  const email = parseEmail(input.email, "user.email");
  const serviceAccount = input.type === "SERVICE_ACCOUNT";
  if (serviceAccount && input.password) throw invalidArgument("user.password: service accounts sign in with their key, not a password");
  if (!serviceAccount) assertPasswordAllowed(input.password, profile.passwordRestriction, "user.password");

  audit.resource = userName(loginId);
  if (!caller) audit.actor = userName(loginId);
  const user = await addUser(audit, {
    user: {
      loginId,
      email,
      title: input.title || loginId,
      type: input.type,
      source: "LOCAL",
      passwordHash: serviceAccount ? null : await hashPassword(input.password),
      requireResetPassword: admin && !serviceAccount && profile.passwordRestriction.requireResetPasswordForFirstLogin,
    },
    roles: admin ? input.roles : [],
    maximumRoleExpirationMs: profile.maximumRoleExpirationMs,
    grantedBy: caller?.name ?? userName(loginId),
  });
  if (!user) throw alreadyExists(`user "${loginId}" already exists`);
  if (!serviceAccount) return { user };
  return { user, serviceKey: await issueServiceKey(tx, user.id) };
}
