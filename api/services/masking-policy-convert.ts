// Masking policies ⇄ svc.v1.Policy (contract §19.2).
import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Policy, PolicySchema } from "../../shared/gen/svc/v1/policy_service_pb.js";
import type { MaskingPolicy, PolicyContent } from "../../shared/sql-editor/index.ts";
import { invalidArgument } from "../../shared/platform/index.ts";

export function toPolicy(policy: MaskingPolicy): Policy {
  const { content } = policy;
  return create(PolicySchema, {
    name: policy.name,
    policy:
      content.type === "MASKING_RULE"
        ? { case: "maskingRulePolicy", value: content.value }
        : {
            case: "maskingExemptionPolicy",
            value: { exemptions: content.value.exemptions.map(({ expireTime, ...e }) => ({ ...e, expireTime: expireTime ? timestampFromDate(new Date(expireTime)) : undefined })) },
          },
    etag: policy.etag,
    updateTime: policy.updateTime ? timestampFromDate(policy.updateTime) : undefined,
  });
}

export function fromPolicy(policy: Policy | undefined): PolicyContent {
  const body = policy?.policy;
  if (body?.case === "maskingRulePolicy") {
    const rules = body.value.rules.map((r) => ({
      id: r.id,
      semanticType: r.semanticType,
      condition: {
        environments: r.condition?.environments ?? [],
        projects: r.condition?.projects ?? [],
        classificationLevels: r.condition?.classificationLevels ?? [],
        semanticTypes: r.condition?.semanticTypes ?? [],
      },
    }));
    return { type: "MASKING_RULE", value: { rules } };
  }
  if (body?.case === "maskingExemptionPolicy") {
    const exemptions = body.value.exemptions.map((e) => ({
      members: e.members,
      database: e.database,
      schema: e.schema,
      table: e.table,
      columns: e.columns,
      reason: e.reason,
      ...(e.expireTime ? { expireTime: timestampDate(e.expireTime).toISOString() } : {}),
    }));
    return { type: "MASKING_EXEMPTION", value: { exemptions } };
  }
  throw invalidArgument("policy: set maskingRulePolicy or maskingExemptionPolicy");
}
