// Roles ⇄ svc.v1 Role.
import { create } from "@bufbuild/protobuf";
import { Role_Type, RoleSchema, type Role } from "../../shared/gen/svc/v1/role_service_pb.js";
import { roleName, type RoleInfo } from "../../shared/identity/iam/roles.ts";

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
