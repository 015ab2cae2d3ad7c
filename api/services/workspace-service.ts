// WorkspaceService: the workspace IAM policy (contract §6.4) and the
// caller's permissions on any resource.
import { WorkspaceService } from "../../shared/gen/svc/v1/workspace_service_pb.js";
import { findPolicies, setIamPolicy, WORKSPACE } from "../../shared/identity/index.ts";
import type { Db } from "../../shared/platform/index.ts";
import { readWorkspaceProfile, type SettingReader } from "../../shared/governance/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import type { Authorize } from "../transport/interceptors/acl.ts";
import { registration } from "../transport/services.ts";
import { heldPermissions } from "./held-permissions.ts";
import { bindingInputs, toIamPolicy } from "./iam-policy-convert.ts";

export interface WorkspaceDeps {
  db: Db;
  settings: SettingReader;
  /** The interceptor chain's own check, so that the answer is what each RPC would decide. */
  authorize: Authorize;
}

export function workspaceService(deps: WorkspaceDeps) {
  return registration(WorkspaceService, {
    async getWorkspaceIamPolicy() {
      const [policy] = await findPolicies(deps.db, [WORKSPACE]);
      if (!policy) throw new Error("the workspace policy row is created by migration 0004");
      return toIamPolicy(policy);
    },
    async setWorkspaceIamPolicy(req, context) {
      const profile = await readWorkspaceProfile(deps.settings);
      const policy = await setIamPolicy(auditScope(context), callerOf(context).name, {
        scope: WORKSPACE,
        bindings: bindingInputs(req.policy),
        etag: req.etag || req.policy?.etag || "",
        maximumRoleExpirationMs: profile.maximumRoleExpirationMs,
      });
      return toIamPolicy(policy);
    },
    async testIamPermissions(req, context) {
      return { permissions: await heldPermissions(deps.authorize, callerOf(context), req.resource, req.permissions) };
    },
  });
}
