// UserService: the caller's own user, reading users, updating them, and
// lifting a sign-in lock (contract §5.1).
import { activeLock, unlock } from "../../shared/auth/lockout.ts";
import type { Principal } from "../../shared/auth/principal.ts";
import { UserService } from "../../shared/gen/svc/v1/user_service_pb.js";
import { hasPermission, WORKSPACE } from "../../shared/iam/authorize.ts";
import type { Db } from "../../shared/platform/db.ts";
import { invalidArgument, notFound, permissionDenied } from "../../shared/platform/errors.ts";
import { parseLoginId } from "../../shared/platform/names.ts";
import type { SettingReader } from "../../shared/settings/setting-cache.ts";
import { readWorkspaceProfile } from "../../shared/settings/workspace-profile.ts";
import { updateUser } from "../../shared/user/update-user.ts";
import { findUserByLoginId } from "../../shared/user/user.store.ts";
import type { CommonQueryMethods } from "slonik";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { toUser } from "./user-convert.ts";

export interface UserDeps {
  db: Db;
  settings: SettingReader;
}

export function userService(deps: UserDeps) {
  return registration(UserService, {
    async getCurrentUser(_req, context) {
      return userView(deps.db, callerOf(context).loginId);
    },
    async getUser(req, context) {
      const principal = callerOf(context);
      const loginId = loginIdOfName(req.name, principal);
      if (loginId !== principal.loginId && !(await hasPermission(deps.db, principal, "bb.users.get", WORKSPACE))) {
        throw permissionDenied(`permission bb.users.get required on ${WORKSPACE}`);
      }
      return userView(deps.db, loginId);
    },
    async updateUser(req, context) {
      const principal = callerOf(context);
      const audit = auditScope(context);
      const loginId = loginIdOfName(req.user?.name ?? "", principal);
      audit.resource = `users/${loginId}`;
      await updateUser(audit, principal, await readWorkspaceProfile(deps.settings), {
        loginId,
        paths: req.updateMask?.paths ?? [],
        title: req.user?.title ?? "",
        email: req.user?.email ?? "",
        password: req.user?.password ?? "",
        currentPassword: req.currentPassword,
      });
      return userView(audit.tx, loginId);
    },
    async unlockUser(req, context) {
      const audit = auditScope(context);
      const loginId = parseLoginId(req.loginId, "login_id");
      audit.resource = `users/${loginId}`;
      if (!(await unlock(audit.tx, loginId))) audit.detail = { wasLocked: false };
      return {};
    },
  });
}

async function userView(db: CommonQueryMethods, loginId: string) {
  const user = await findUserByLoginId(db, loginId);
  if (!user) throw notFound(`user "${loginId}" does not exist`);
  return toUser(user, await activeLock(db, loginId));
}

/** users/<login_id> or users/me (the caller). */
function loginIdOfName(name: string, principal: Principal): string {
  if (!name.startsWith("users/")) throw invalidArgument(`name: "${name}" is not a user name; use users/<login_id> or users/me`);
  const id = name.slice("users/".length);
  return id === "me" ? principal.loginId : parseLoginId(id, "name");
}
