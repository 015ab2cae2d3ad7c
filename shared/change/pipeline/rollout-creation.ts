// Building a rollout from a plan (contract §11.4, §12.1): one stage per
// effective environment of the targets in ENVIRONMENT order (targets without
// a known environment last, in stage `-`), one task per (spec, target) with
// the statement fixed at creation. The first stage starts at once when its
// environment's policy is AUTOMATIC.
import { createHash } from "node:crypto";
import type { CommonQueryMethods } from "slonik";
import { parseDatabaseName } from "../../inventory/index.ts";
import { alreadyExists } from "../../platform/index.ts";
import { readEnvironments, storedSettings } from "../../governance/index.ts";
import { planName } from "../plan/plan-names.ts";
import { getPlan } from "../plan/plan-reads.ts";
import type { PlanRow } from "../plan/plan.store.ts";
import type { PlanSpec } from "../plan/plan-specs.ts";
import { NO_ENVIRONMENT_STAGE } from "../rollout/rollout-names.ts";
import type { RolloutRef } from "../rollout/rollout-names.ts";
import { insertRollout, type RolloutState } from "../rollout/rollout.store.ts";
import { targetEnvironments, type NewTask } from "../rollout/task.store.ts";
import { automaticOf, refreshRollout } from "./progress.ts";
import { tasksMoved } from "./stage-rules.ts";

export interface NewRollout {
  projectId: string;
  planId: string;
  /** The issue the rollout belongs to, when there is one. */
  issueId: string | undefined;
  creator: string;
}

/**
 * Creates the plan's rollout and starts what starts by itself; answers its
 * ref and the state it is left in. `plan`: the plan as the caller read it
 * in this transaction (read here otherwise).
 */
export async function createRollout(tx: CommonQueryMethods, request: NewRollout, plan?: PlanRow): Promise<RolloutRef & { state: RolloutState }> {
  plan ??= await getPlan(tx, { projectId: request.projectId, id: request.planId });
  const targets = plan.specs.flatMap((spec) => spec.targets.map((target) => ({ spec, ref: parseDatabaseName(target, "plan.specs.targets") })));
  const environmentOf = await targetEnvironments(tx, targets.map((t) => ({ instanceId: t.ref.instanceId, name: t.ref.name })));
  const environments = await readEnvironments(storedSettings(tx));
  const order = environments.map((e) => e.id);
  const stageOf = (instanceId: string, name: string) => {
    const environment = environmentOf.get(`${instanceId}/${name}`) ?? "";
    return order.includes(environment) ? environment : NO_ENVIRONMENT_STAGE;
  };
  const stageIds = [...order, NO_ENVIRONMENT_STAGE].filter((id) => targets.some((t) => stageOf(t.ref.instanceId, t.ref.name) === id));
  const digests = new Map(plan.specs.map((spec) => [spec.id, sha256(spec.statement)]));
  const tasks = targets.map(({ spec, ref }): NewTask => ({
    stageId: stageOf(ref.instanceId, ref.name),
    specId: spec.id,
    instanceId: ref.instanceId,
    databaseName: ref.name,
    type: taskType(spec),
    statement: spec.statement,
    statementSha256: digests.get(spec.id)!,
    releaseFile: spec.releaseFile,
  }));
  // Stable by stage position: within a stage, tasks keep spec and target order.
  tasks.sort((a, b) => stageIds.indexOf(a.stageId) - stageIds.indexOf(b.stageId));
  const rollout = await insertRollout(tx, { ...request, title: plan.title }, stageIds, tasks);
  if (!rollout) throw alreadyExists(`plan "${planName(plan)}" already has a rollout`);
  // The new row is locked by its insert; the environments were read above, and its stages and tasks have just been written.
  const progress = { stages: stageIds.map((id, position) => ({ id, position, state: "NOT_STARTED" as const })), counts: tasksMoved(new Map(), tasks, "NOT_STARTED") };
  const state = await refreshRollout(tx, rollout, request.creator, { locked: rollout, automatic: automaticOf(environments), progress });
  return { projectId: rollout.projectId, id: rollout.id, state: state! };
}

function taskType(spec: PlanSpec): NewTask["type"] {
  return spec.type === "DATA" ? "DATABASE_DATA_UPDATE" : "DATABASE_MIGRATE";
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
