// PolicyService (contract §19.2): the workspace's masking rules and each
// project's masking exemptions.
import { PolicyService } from "../../shared/gen/svc/v1/policy_service_pb.js";
import type { Db } from "../../shared/platform/index.ts";
import { getMaskingPolicy, updateMaskingPolicy } from "../../shared/sql-editor/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { registration } from "../transport/services.ts";
import { fromPolicy, toPolicy } from "./masking-policy-convert.ts";

export function maskingPolicyService(deps: { db: Db }) {
  return registration(PolicyService, {
    async getPolicy(req) {
      return toPolicy(await getMaskingPolicy(deps.db, req.name));
    },
    async updatePolicy(req, context) {
      const policy = req.policy;
      return toPolicy(await updateMaskingPolicy(auditScope(context).tx, policy?.name ?? "", fromPolicy(policy), policy?.etag ?? ""));
    },
  });
}
