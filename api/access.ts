// How the interceptor chain resolves credentials and permissions against the
// store: session tokens and service keys (contract §4.3), IAM bindings (§6.4).
import { authenticate, decideAccess, isPermission, sessionPolicyOf, WORKSPACE } from "../shared/identity/index.ts";
import { accessScope } from "../shared/inventory/index.ts";
import type { Db } from "../shared/platform/index.ts";
import { readWorkspaceProfile, type SettingReader } from "../shared/governance/index.ts";
import type { Authorize } from "./transport/interceptors/acl.ts";
import type { Authenticate } from "./transport/interceptors/authn.ts";

export function sessionAuthenticate(db: Db, settings: SettingReader): Authenticate {
  return async (token) => authenticate(db, token, sessionPolicyOf(await readWorkspaceProfile(settings)));
}

export function iamAuthorize(db: Db): Authorize {
  return async (principal, permission, resourceName, tx) => {
    if (!isPermission(permission)) return { allowed: false, hidden: false, resource: resourceName || WORKSPACE };
    const reader = tx ?? db;
    const scope = await accessScope(reader, permission, resourceName);
    return { ...(await decideAccess(reader, principal, permission, scope)), resource: scope };
  };
}
