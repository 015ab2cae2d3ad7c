// Stored IAM policies ⇄ svc.v1 IamPolicy.
import { create } from "@bufbuild/protobuf";
import { IamPolicySchema, type IamPolicy } from "../../shared/gen/svc/v1/iam_policy_pb.js";
import { type BindingInput, isBindingActive, type StoredPolicy } from "../../shared/identity/index.ts";

export function toIamPolicy(policy: StoredPolicy, now = new Date()): IamPolicy {
  return create(IamPolicySchema, {
    etag: policy.etag,
    bindings: policy.bindings.map((b) => ({ ...b, expired: !isBindingActive(b.condition, now) })),
  });
}

export function bindingInputs(policy: IamPolicy | undefined): BindingInput[] {
  return (policy?.bindings ?? []).map((b) => ({ role: b.role, members: b.members, condition: b.condition }));
}
