// UserService methods that create, list, delete and restore users.
import type { ServiceImpl } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type User, type UserService, UserType } from "../../shared/gen/svc/v1/user_service_pb.js";
import {
  activeLock,
  activeLocks,
  createUser,
  deleteUser,
  groupIdsOfUser,
  groupIdsOfUsers,
  listUsers,
  undeleteUser,
} from "../../shared/identity/index.ts";
import { decodePageToken, encodePageToken, type FilterFields, pageSize, parseFilter } from "../../shared/platform/index.ts";
import { readWorkspaceProfile } from "../../shared/governance/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { kPrincipal } from "../transport/interceptors/authn.ts";
import { loginIdOfUserName, toUser } from "./user-convert.ts";
import type { UserDeps } from "./user-service.ts";

const FILTER_FIELDS: FilterFields = {
  login_id: { kind: "substring" },
  email: { kind: "substring" },
  title: { kind: "substring" },
  state: { kind: "enum", values: ["ACTIVE", "DELETED"] },
  type: { kind: "enum", values: ["END_USER", "SERVICE_ACCOUNT"] },
  outside_domains: { kind: "bool" },
};

type LifecycleMethods = Pick<ServiceImpl<typeof UserService>, "listUsers" | "createUser" | "deleteUser" | "undeleteUser">;

export function userLifecycleMethods(deps: UserDeps): LifecycleMethods {
  return {
    async listUsers(req) {
      const terms = parseFilter(req.filter, FILTER_FIELDS);
      const query = JSON.stringify({ filter: req.filter, showDeleted: req.showDeleted });
      const limit = pageSize(req.pageSize);
      const [afterId = 0] = decodePageToken(req.pageToken, query, ["integer"]) ?? [];
      const { domains } = await readWorkspaceProfile(deps.settings);
      const rows = await listUsers(deps.db, { terms, showDeleted: req.showDeleted, domains, afterId: Number(afterId), limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const loginIds = page.map((row) => row.loginId);
      const [locks, groups] = await Promise.all([activeLocks(deps.db, loginIds), groupIdsOfUsers(deps.db, loginIds)]);
      return {
        users: page.map((row) => toUser(row, locks.get(row.loginId), groups.get(row.loginId))),
        nextPageToken: rows.length > limit && last ? encodePageToken(query, [last.id]) : "",
      };
    },
    async createUser(req, context) {
      const audit = auditScope(context);
      const user = req.user;
      const created = await createUser(audit, context.values.get(kPrincipal), await readWorkspaceProfile(deps.settings), {
        loginId: req.loginId || (user?.name ? loginIdOfUserName(user.name) : ""),
        email: user?.email ?? "",
        title: user?.title ?? "",
        type: userTypeOf(user),
        password: user?.password ?? "",
        roles: (user?.roles ?? []).map((grant) => ({ role: grant.role, expiresAt: grant.expiresAt && timestampDate(grant.expiresAt) })),
      });
      return { ...toUser(created.user), serviceKey: created.serviceKey ?? "" };
    },
    async deleteUser(req, context) {
      await deleteUser(auditScope(context).tx, loginIdOfUserName(req.name));
      return {};
    },
    async undeleteUser(req, context) {
      const tx = auditScope(context).tx;
      const user = await undeleteUser(tx, loginIdOfUserName(req.name));
      return toUser(user, await activeLock(tx, user.loginId), await groupIdsOfUser(tx, user.loginId));
    },
  };
}

function userTypeOf(user: User | undefined): "END_USER" | "SERVICE_ACCOUNT" {
  return user?.type === UserType.SERVICE_ACCOUNT ? "SERVICE_ACCOUNT" : "END_USER";
}
