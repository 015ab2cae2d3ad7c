// First start (contract §4.7): with no principal in the store, create the
// administrator, bind it to roles/workspaceAdmin and require a password
// change at its first sign-in. Replicas starting together create it once.
import { lockPolicy, replacePolicy } from "../iam/iam-policy.store.ts";
import { WORKSPACE } from "../iam/authorize.ts";
import { userMember } from "../iam/members.ts";
import { ADMIN_ROLE } from "../iam/workspace-admins.ts";
import { type Db, type Logger, withTransaction } from "../../platform/index.ts";
import { initWorkspaceProfile } from "../../governance/index.ts";
import { generatePassword } from "./generated-password.ts";
import { hashPassword } from "./password-hash.ts";
import { countUsers, insertUser, lockBootstrap } from "./user.store.ts";

export interface BootstrapOptions {
  loginId: string;
  /** The administrator's password; generated and logged once when absent. */
  password: string | undefined;
}

export async function bootstrapWorkspace(db: Db, options: BootstrapOptions, logger: Logger): Promise<void> {
  const password = options.password ?? generatePassword();
  const created = await withTransaction(db, async (tx) => {
    await lockBootstrap(tx);
    if ((await countUsers(tx)) > 0) return false;
    await insertUser(tx, {
      loginId: options.loginId,
      email: "",
      title: "Administrator",
      type: "END_USER",
      source: "LOCAL",
      passwordHash: await hashPassword(password),
      requireResetPassword: true,
    });
    const policy = await lockPolicy(tx, WORKSPACE);
    await replacePolicy(tx, WORKSPACE, [...policy.bindings, { role: ADMIN_ROLE, members: [userMember(options.loginId)] }], "system");
    await initWorkspaceProfile(tx, { disallowSelfApprovalDefault: true });
    return true;
  });
  if (!created) return;
  logger.info({ login_id: options.loginId }, `created the first administrator "${options.loginId}"; it must change its password at first sign-in`);
  if (!options.password) logger.warn(`bootstrap admin password: ${password}`);
}
