// UserService: the caller's own user, reading users, updating them (with
// second-factor enrolment and service-key rotation), resetting a second
// factor, and lifting a sign-in lock (contract §5.1).
import {
  activeLock,
  findUserByLoginId,
  groupIdsOfUser,
  type IamReads,
  requirePermission,
  resetMfa,
  unlock,
  updateUser,
  WORKSPACE,
} from "../../shared/identity/index.ts";
import { UserService } from "../../shared/gen/svc/v1/user_service_pb.js";
import { type Db, notFound, parseLoginId, type SecretBox, userName } from "../../shared/platform/index.ts";
import { readWorkspaceProfile, type SettingReader } from "../../shared/governance/index.ts";
import type { CommonQueryMethods } from "slonik";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { loginIdOfUserName, toUser } from "./user-convert.ts";
import { userLifecycleMethods } from "./user-service-lifecycle.ts";

export interface UserDeps {
  db: Db;
  /** IAM reads for permission checks (the access cache). */
  iam: IamReads;
  settings: SettingReader;
  /** Seals and opens TOTP secrets. */
  secrets: SecretBox;
}

export function userService(deps: UserDeps) {
  return registration(UserService, {
    ...userLifecycleMethods(deps),
    async getCurrentUser(_req, context) {
      return userView(deps.db, callerOf(context).loginId);
    },
    async getUser(req, context) {
      const principal = callerOf(context);
      const loginId = loginIdOfUserName(req.name, principal);
      if (loginId !== principal.loginId) await requirePermission(deps.iam, principal, "bb.users.get", WORKSPACE);
      return userView(deps.db, loginId);
    },
    async updateUser(req, context) {
      const principal = callerOf(context);
      const audit = auditScope(context);
      const loginId = loginIdOfUserName(req.user?.name ?? "", principal);
      audit.resource = userName(loginId);
      const { reveal, serviceKey } = await updateUser(audit, principal, deps.secrets, await readWorkspaceProfile(deps.settings), {
        loginId,
        paths: req.updateMask?.paths ?? [],
        title: req.user?.title ?? "",
        email: req.user?.email ?? "",
        password: req.user?.password ?? "",
        currentPassword: req.currentPassword,
        mfaEnabled: req.user?.mfaEnabled ?? false,
        otpCode: req.otpCode,
        regenerateTempMfaSecret: req.regenerateTempMfaSecret,
        regenerateRecoveryCodes: req.regenerateRecoveryCodes,
        regenerateServiceKey: req.regenerateServiceKey,
      });
      return {
        ...(await userView(audit.tx, loginId)),
        tempOtpSecret: reveal.enrollment?.secret ?? "",
        tempOtpUri: reveal.enrollment?.uri ?? "",
        tempOtpQrCode: reveal.enrollment?.qrCode ?? "",
        tempRecoveryCodes: reveal.recoveryCodes ?? [],
        serviceKey: serviceKey ?? "",
      };
    },
    async resetMfa(req, context) {
      const audit = auditScope(context);
      const loginId = loginIdOfUserName(req.name);
      audit.detail = await resetMfa(audit.tx, loginId);
      return userView(audit.tx, loginId);
    },
    async unlockUser(req, context) {
      const audit = auditScope(context);
      const loginId = parseLoginId(req.loginId, "login_id");
      audit.resource = userName(loginId);
      audit.detail = { wasLocked: await unlock(audit.tx, loginId) };
      return {};
    },
  });
}

async function userView(db: CommonQueryMethods, loginId: string) {
  const user = await findUserByLoginId(db, loginId);
  if (!user) throw notFound(`user "${loginId}" does not exist`);
  return toUser(user, await activeLock(db, loginId), await groupIdsOfUser(db, loginId));
}
