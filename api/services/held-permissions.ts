// Which permissions the caller holds on a resource (WorkspaceService.
// TestIamPermissions), decided by the very check the interceptor chain runs
// for each RPC, so that a client offers exactly what the server would allow.
import { hiddenScope, isPermission, WORKSPACE } from "../../shared/identity/index.ts";
import { invalidArgument } from "../../shared/platform/index.ts";
import type { Authorize } from "../transport/interceptors/acl.ts";
import type { Principal } from "../transport/interceptors/authn.ts";

const MAX_PERMISSIONS = 100;
/** A resource name: `<collection>/<id>` and what lies below it. */
const RESOURCE_NAME = /^[a-zA-Z]+\/[^/\s]+(\/[^/\s]+)*$/;

export async function heldPermissions(authorize: Authorize, caller: Principal, resource: string, permissions: readonly string[]): Promise<string[]> {
  if (resource && !RESOURCE_NAME.test(resource)) {
    throw invalidArgument(`resource must be a resource name such as ${WORKSPACE}, projects/<id> or instances/<id>/databases/<name>`);
  }
  if (permissions.length > MAX_PERMISSIONS) throw invalidArgument(`permissions may name at most ${MAX_PERMISSIONS} permissions`);
  const unknown = permissions.filter((p) => !isPermission(p));
  if (unknown.length > 0) throw invalidArgument(`unknown permissions: ${unknown.join(", ")}; the catalogue is bb.<resource>.<verb> (contract §6.1)`);
  const decisions = await Promise.all(permissions.map((p) => authorize(caller, p, resource === WORKSPACE ? "" : resource, undefined)));
  const hidden = decisions.find((d) => d.hidden);
  if (hidden) throw hiddenScope(hidden.resource);
  return permissions.filter((_, i) => decisions[i]!.allowed);
}
