// RoleService: predefined and custom roles (contract §6.3, §18.2).
import { RoleService } from "../../shared/gen/svc/v1/role_service_pb.js";
import { createCustomRole, deleteCustomRole, getRole, listRoles, parseRoleName, roleName, updateCustomRole } from "../../shared/identity/index.ts";
import { type Db, pageSize } from "../../shared/platform/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { toRole } from "./role-convert.ts";

export interface RoleDeps {
  db: Db;
}

export function roleService(deps: RoleDeps) {
  return registration(RoleService, {
    async listRoles(req) {
      const page = await listRoles(deps.db, pageSize(req.pageSize), req.pageToken);
      return { roles: page.roles.map(toRole), nextPageToken: page.nextPageToken };
    },
    async getRole(req) {
      return toRole(await getRole(deps.db, parseRoleName(req.name, "name")));
    },
    async createRole(req, context) {
      const audit = auditScope(context);
      if (req.roleId) audit.resource = roleName(req.roleId);
      const role = await createCustomRole(audit.tx, callerOf(context).name, req.roleId, {
        title: req.role?.title ?? "",
        description: req.role?.description ?? "",
        permissions: req.role?.permissions ?? [],
      });
      return toRole(role);
    },
    async updateRole(req, context) {
      const audit = auditScope(context);
      const id = parseRoleName(req.role?.name ?? "", "role.name");
      const role = await updateCustomRole(audit.tx, {
        id,
        paths: req.updateMask?.paths ?? [],
        etag: req.role?.etag ?? "",
        title: req.role?.title ?? "",
        description: req.role?.description ?? "",
        permissions: req.role?.permissions ?? [],
      });
      audit.resource = roleName(role.id);
      return toRole(role);
    },
    async deleteRole(req, context) {
      const audit = auditScope(context);
      audit.resource = roleName(await deleteCustomRole(audit.tx, parseRoleName(req.name, "name")));
      return {};
    },
  });
}
