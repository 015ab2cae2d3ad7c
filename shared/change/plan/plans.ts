// Plans (contract §10.1): creating (idempotent by request id), reading,
// editing by mask while no rollout exists (the state is the server's), and
// deletion. Creating a plan and changing its specs start a check run; a
// change of specs also sends the plan's open issue back to CHECKING (§11.2).
import type { CommonQueryMethods } from "slonik";
import type { CallAudit } from "../../governance/index.ts";
import { type IamSubject, requirePermission, storedIam } from "../../identity/index.ts";
import {
  aborted,
  alreadyExists,
  checkRequestId,
  failedPrecondition,
  invalidArgument,
  maskFields,
  notFound,
  quoted,
  RESOURCE_ID_PATTERN,
} from "../../platform/index.ts";
import { activeProject, projectName } from "../../inventory/index.ts";
import { rolloutName } from "../rollout/rollout-names.ts";
import { findRolloutByPlan } from "../rollout/rollout.store.ts";
import { planCreated, planSpecsChanged } from "../pipeline/checks.ts";
import { planName, type PlanRef } from "./plan-names.ts";
import { checkedSpecs, type SpecInput } from "./plan-specs.ts";
import { findPlan, findPlanByRequest, forgetOldPlanRequest, insertPlan, markPlanDeleted, updatePlan as updateRow, type PlanRow } from "./plan.store.ts";

export interface PlanDraft {
  title: string;
  description: string;
  specs: readonly SpecInput[];
}

const MASK = {
  resource: "plan",
  editable: ["title", "description", "specs"],
  outputOnly: ["name", "state", "creator", "create_time", "update_time", "issue", "rollout", "plan_check_run_status_count", "etag"],
} as const;

export interface NewPlan {
  projectId: string;
  /** Client-chosen id, or "" for a server-chosen number. */
  planId: string;
  requestId: string;
  creator: string;
  draft: PlanDraft;
}

export async function createPlan(audit: CallAudit, plan: NewPlan): Promise<PlanRow> {
  const tx = audit.tx;
  if (plan.planId && !RESOURCE_ID_PATTERN.test(plan.planId)) {
    throw invalidArgument(`plan_id: ${quoted(plan.planId)} is not a valid plan id; it starts with a lower-case letter and has up to 63 lower-case letters, digits and hyphens`);
  }
  checkRequestId(plan.requestId);
  if (plan.requestId) {
    const earlier = await findPlanByRequest(tx, plan.creator, plan.requestId);
    if (earlier) return (audit.resource = planName(earlier)), earlier;
    await forgetOldPlanRequest(tx, plan.creator, plan.requestId);
  }
  await activeProject(tx, plan.projectId);
  const specs = await checkedSpecs(tx, plan.projectId, plan.draft.specs, "plan.specs");
  const row = await insertPlan(tx, {
    projectId: plan.projectId,
    id: plan.planId || undefined,
    title: plan.draft.title.trim(),
    description: plan.draft.description,
    specs,
    creator: plan.creator,
    requestId: plan.requestId || undefined,
  });
  if (!row) return conflictingCreate(tx, plan);
  audit.resource = planName(row);
  await planCreated(tx, row);
  return row;
}

/** A create that lost a race: same request id (answer that plan) or a taken plan id. */
async function conflictingCreate(tx: CommonQueryMethods, plan: NewPlan): Promise<PlanRow> {
  const earlier = plan.requestId ? await findPlanByRequest(tx, plan.creator, plan.requestId) : undefined;
  if (earlier) return earlier;
  throw alreadyExists(`plan "${planName({ projectId: plan.projectId, id: plan.planId })}" already exists`);
}

export interface PlanUpdate {
  ref: PlanRef;
  draft: PlanDraft;
  paths: readonly string[];
  etag: string;
}

/** bb.plans.update, or the plan's creator (contract §10.1). */
export async function updatePlan(tx: CommonQueryMethods, caller: IamSubject & { name: string }, update: PlanUpdate): Promise<PlanRow> {
  if (update.paths.some((p) => p === "state" || p === "plan.state")) throw invalidArgument("update_mask: state is managed by the server");
  const current = await findPlan(tx, update.ref.projectId, update.ref.id, true);
  if (current?.creator !== caller.name) await requirePermission(storedIam(tx), caller, "bb.plans.update", projectName(update.ref.projectId));
  if (!current) throw notFound(`plan "${planName(update.ref)}" does not exist`);
  const fields = maskFields(update.paths, MASK);
  if (current.state !== "ACTIVE") throw notFound(`plan "${planName(current)}" is deleted`);
  if (update.etag && update.etag !== current.etag) {
    throw aborted(`plan "${planName(current)}" changed since it was read (etag ${update.etag} is stale); read it again and retry`);
  }
  const rollout = await findRolloutByPlan(tx, current.projectId, current.id);
  if (rollout) throw failedPrecondition(`plan "${planName(current)}" has a rollout (${rolloutName(rollout)}, ${rollout.state}) and can no longer change`);
  const specs = fields.has("specs") ? await checkedSpecs(tx, current.projectId, update.draft.specs, "plan.specs") : current.specs;
  const updated = await updateRow(tx, current.projectId, current.id, {
    title: fields.has("title") ? update.draft.title.trim() : current.title,
    description: fields.has("description") ? update.draft.description : current.description,
    specs,
  });
  if (fields.has("specs")) await planSpecsChanged(tx, current, caller.name);
  return updated;
}

export async function deletePlan(tx: CommonQueryMethods, ref: PlanRef): Promise<void> {
  const plan = await findPlan(tx, ref.projectId, ref.id, true);
  if (!plan || plan.state !== "ACTIVE") throw notFound(`plan "${planName(ref)}" does not exist`);
  if (await findRolloutByPlan(tx, ref.projectId, ref.id)) throw failedPrecondition(`plan "${planName(ref)}" has a rollout and cannot be deleted`);
  await markPlanDeleted(tx, ref.projectId, ref.id);
}
