// Roles ⇄ svc.v1 Role.
import { create } from "@bufbuild/protobuf";
import { Role_Type, RoleSchema, type Role } from "../../shared/gen/svc/v1/role_service_pb.js";
import { type RoleInfo, roleName } from "../../shared/identity/index.ts";

export function toRole(role: RoleInfo): Role {
  return create(RoleSchema, {
    name: roleName(role.id),
    title: role.title,
    description: role.description,
    permissions: [...role.permissions],
    type: Role_Type[role.type],
    etag: role.etag,
  });
}
