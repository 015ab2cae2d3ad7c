// A page's view of what the caller may do on a resource, so that it offers
// only the actions the server would allow (issue 28: actions a user may not
// take are not offered). Until the answer arrives nothing is offered.
import { WorkspaceService } from "@gen/svc/v1/workspace_service_pb.js";
import { client } from "../../api/clients.ts";
import { useLoad } from "../../hooks/use-load.ts";
import { useSession } from "../auth/session.tsx";
import { createPermissionCache, type Permission, type PermissionCache } from "./permission-cache.ts";

export type { Permission };

/** The workspace, for workspace-wide permissions (settings, users, audit log …). */
export const WORKSPACE = "workspaces/-";

const ask = async (resource: string, permissions: Permission[]) =>
  (await client(WorkspaceService).testIamPermissions({ resource, permissions })).permissions;

// One cache per signed-in user, so that the next user never sees the last one's answers.
const caches = new Map<string, PermissionCache>();

function cacheOf(user: string): PermissionCache {
  let cache = caches.get(user);
  if (!cache) caches.set(user, (cache = createPermissionCache(ask)));
  return cache;
}

/** Drops the known answers; call after a change of IAM policy so that the pages ask again. */
export function forgetPermissions(): void {
  caches.clear();
}

export interface Permissions {
  /** The answer has arrived (or failed: then nothing is permitted). */
  ready: boolean;
  /** Why the answer could not be had, when it could not. */
  error: string | undefined;
  can(permission: Permission): boolean;
}

/**
 * Which of `permissions` the signed-in user holds on `resource` (any resource
 * name: "workspaces/-", "projects/p", "projects/p/issues/7",
 * "instances/i/databases/d"), as the server's own access check decides.
 */
export function usePermissions(resource: string, permissions: readonly Permission[]): Permissions {
  const { state } = useSession();
  const user = state.status === "signed-in" ? state.user.name : "";
  const loaded = useLoad(() => cacheOf(user).held(resource, permissions), [resource, permissions.join(" "), user]);
  const granted = loaded.status === "done" ? loaded.value : new Set<Permission>();
  return {
    ready: loaded.status !== "loading",
    error: loaded.status === "failed" ? loaded.message : undefined,
    can: (permission) => granted.has(permission),
  };
}
