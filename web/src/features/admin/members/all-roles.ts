// Every role of the workspace (RoleService.ListRoles), built-in and custom, as
// the pages that pick roles offer them.
import { type Role, RoleService } from "@gen/svc/v1/role_service_pb.js";
import { client } from "../../../api/clients.ts";

export async function allRoles(signal: AbortSignal): Promise<Role[]> {
  return (await client(RoleService).listRoles({ pageSize: 1000 }, { signal })).roles;
}
