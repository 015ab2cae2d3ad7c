// How the interceptor chain resolves credentials and permissions against the
// store: session tokens and service keys (contract §4.3), IAM bindings (§6.4).
import {
  authenticate,
  decideAccess,
  type IamReads,
  isPermission,
  type SessionTokens,
  sessionPolicyOf,
  storedIam,
  WORKSPACE,
} from "../shared/identity/index.ts";
import { accessScope } from "../shared/inventory/index.ts";
import type { Db } from "../shared/platform/index.ts";
import { readWorkspaceProfile, type SettingReader } from "../shared/governance/index.ts";
import type { Authorize } from "./transport/interceptors/acl.ts";
import type { Authenticate } from "./transport/interceptors/authn.ts";

export function sessionAuthenticate(db: Db, settings: SettingReader, tokens: SessionTokens): Authenticate {
  return async (token) => authenticate(db, token, sessionPolicyOf(await readWorkspaceProfile(settings)), tokens);
}

/** Decides with `iam` (the access cache), or inside the call's transaction when it holds one. */
export function iamAuthorize(db: Db, iam: IamReads): Authorize {
  return async (principal, permission, resourceName, tx) => {
    if (!isPermission(permission)) return { allowed: false, hidden: false, resource: resourceName || WORKSPACE };
    const scope = await accessScope(tx ?? db, permission, resourceName);
    return { ...(await decideAccess(tx ? storedIam(tx) : iam, principal, permission, scope)), resource: scope };
  };
}
