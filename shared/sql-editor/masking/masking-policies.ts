// The masking policies (contract §19.2): policies/MASKING_RULE (the
// workspace's) and projects/<id>/policies/MASKING_EXEMPTION, each read (empty
// when never written) and replaced whole, over the etag it was read at
// (§0.7: a write without one is unconditional). A policy never written reads
// with the etag NO_POLICY_ETAG, so that its first write can be conditional
// too: sent back, it writes only if no one wrote the policy in between.
import type { CommonQueryMethods } from "slonik";
import { aborted, invalidArgument, quoted } from "../../platform/index.ts";
import { activeProject } from "../../inventory/index.ts";
import { checkMaskingExemptions, checkMaskingRules } from "./masking-policy-checks.ts";
import { findMaskingPolicy, insertMaskingPolicy, lockMaskingPolicy, type MaskingPolicyType, saveMaskingPolicy, type StoredMaskingPolicy } from "./masking-policy.store.ts";
import type { MaskingExemptionPolicy, MaskingRulePolicy } from "./masking-policy-types.ts";

export const WORKSPACE_RESOURCE = "workspace";
/** The etag of a policy never written; stored etags are md5 hex, never this. */
export const NO_POLICY_ETAG = "0";
const RULE_NAME = "policies/MASKING_RULE";
const EXEMPTION_NAME = /^projects\/([a-z][a-z0-9-]{0,62})\/policies\/MASKING_EXEMPTION$/;

export type PolicyContent = { type: "MASKING_RULE"; value: MaskingRulePolicy } | { type: "MASKING_EXEMPTION"; value: MaskingExemptionPolicy };

export interface MaskingPolicy {
  name: string;
  content: PolicyContent;
  etag: string;
  updateTime?: Date;
}

interface PolicyRef {
  name: string;
  resource: string;
  type: MaskingPolicyType;
  /** The project of an exemption policy. */
  projectId?: string;
}

export function parsePolicyName(name: string, field: string): PolicyRef {
  if (name === RULE_NAME) return { name, resource: WORKSPACE_RESOURCE, type: "MASKING_RULE" };
  const projectId = EXEMPTION_NAME.exec(name)?.[1];
  if (projectId) return { name, resource: `projects/${projectId}`, type: "MASKING_EXEMPTION", projectId };
  throw invalidArgument(`${field}: ${quoted(name)} is not a policy; use ${RULE_NAME} or projects/<project_id>/policies/MASKING_EXEMPTION`);
}

export async function getMaskingPolicy(db: CommonQueryMethods, name: string): Promise<MaskingPolicy> {
  const ref = parsePolicyName(name, "name");
  if (ref.projectId) await activeProject(db, ref.projectId);
  const stored = await findMaskingPolicy(db, ref.resource, ref.type);
  return { name, content: contentOf(ref.type, stored?.payload ?? {}), etag: stored?.etag ?? NO_POLICY_ETAG, updateTime: stored?.updateTime };
}

export async function updateMaskingPolicy(tx: CommonQueryMethods, name: string, content: PolicyContent, etag: string): Promise<MaskingPolicy> {
  const ref = parsePolicyName(name, "policy.name");
  if (content.type !== ref.type) throw invalidArgument(`policy: ${name} holds a ${ref.type} policy, got ${content.type}`);
  if (ref.projectId) await activeProject(tx, ref.projectId);
  const current = await lockMaskingPolicy(tx, ref.resource, ref.type);
  const stale = () => aborted(`${name} changed since it was read (etag ${etag} is stale); read it again and retry`);
  if (etag && etag !== (current?.etag ?? NO_POLICY_ETAG)) throw stale();
  if (content.type === "MASKING_RULE") await checkMaskingRules(tx, content.value.rules);
  else await checkMaskingExemptions(tx, ref.projectId!, content.value.exemptions);
  // A missing row cannot be locked: a first write over NO_POLICY_ETAG inserts only if it is still missing.
  const saved: StoredMaskingPolicy | undefined =
    etag === NO_POLICY_ETAG ? await insertMaskingPolicy(tx, ref.resource, ref.type, content.value) : await saveMaskingPolicy(tx, ref.resource, ref.type, content.value);
  if (!saved) throw stale();
  return { name, content: contentOf(ref.type, saved.payload), etag: saved.etag, updateTime: saved.updateTime };
}

function contentOf(type: MaskingPolicyType, payload: Record<string, unknown>): PolicyContent {
  if (type === "MASKING_RULE") return { type, value: { rules: (payload["rules"] as MaskingRulePolicy["rules"]) ?? [] } };
  return { type, value: { exemptions: (payload["exemptions"] as MaskingExemptionPolicy["exemptions"]) ?? [] } };
}
