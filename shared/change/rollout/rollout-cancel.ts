// Cancelling a rollout (contract §12.3, §11.1): CancelRollout stops running
// task runs on their targets (§12.5) and ends pending ones; cancelling an
// issue only cancels a rollout with nothing running.
import type { CommonQueryMethods } from "slonik";
import { failedPrecondition, invalidArgument, notFound, quoted } from "../../platform/index.ts";
import { requestCancel } from "../task-run/cancel.ts";
import { refreshRollout } from "../pipeline/progress.ts";
import { lockRollout } from "./rollout-actions.ts";
import { parseTaskName, parseTaskRunName, rolloutName, type RolloutRef } from "./rollout-names.ts";
import { setRolloutState } from "./rollout.store.ts";
import { findActiveRuns, findTaskRunsById } from "../task-run/store/task-run.store.ts";

export async function cancelRollout(tx: CommonQueryMethods, ref: RolloutRef, reason: string, canceller: string): Promise<void> {
  const rollout = await lockRollout(tx, ref);
  if (rollout.state === "DONE" || rollout.state === "CANCELED") throw failedPrecondition(`rollout "${rolloutName(ref)}" is ${rollout.state}`);
  const runs = await findActiveRuns(tx, ref);
  await requestCancel(tx, runs.map((r) => r.id), cancelDetail(reason, canceller));
  await setRolloutState(tx, ref, "CANCELED");
  await refreshRollout(tx, ref, canceller);
}

/** For an issue being cancelled: refused while a task run is RUNNING. */
export async function cancelIdleRollout(tx: CommonQueryMethods, ref: RolloutRef, reason: string, canceller: string): Promise<void> {
  const rollout = await lockRollout(tx, ref);
  if (rollout.state === "DONE" || rollout.state === "CANCELED") return;
  const runs = await findActiveRuns(tx, ref);
  if (runs.some((r) => r.state === "RUNNING")) {
    throw failedPrecondition(`rollout "${rolloutName(ref)}" has a task run RUNNING; cancel it or wait for it to end`);
  }
  await requestCancel(tx, runs.map((r) => r.id), cancelDetail(reason, canceller));
  await setRolloutState(tx, ref, "CANCELED");
  await refreshRollout(tx, ref, canceller);
}

function cancelDetail(reason: string, canceller: string): string {
  return reason.trim() ? `canceled by ${canceller}: ${reason.trim()}` : `canceled by ${canceller}`;
}

/** BatchCancelTaskRuns: PENDING or RUNNING runs of the parent task (`-`: any task of the rollout). */
export async function cancelTaskRuns(tx: CommonQueryMethods, parent: string, names: readonly string[], reason: string, canceller: string): Promise<number[]> {
  const { rollout: ref, taskId } = parseTaskName(parent, "parent", true);
  await lockRollout(tx, ref);
  if (names.length === 0) throw invalidArgument("task_runs: name at least one task run");
  const ids = names.map((name, i) => {
    const run = parseTaskRunName(name, `task_runs[${i}]`);
    if (rolloutName(run.rollout) !== rolloutName(ref) || (taskId !== undefined && run.taskId !== taskId)) {
      throw invalidArgument(`task_runs[${i}]: ${quoted(name)} is not a run of ${quoted(parent)}`);
    }
    return run.runId;
  });
  const runs = await findTaskRunsById(tx, ref, ids);
  for (const id of ids) {
    const run = runs.find((r) => r.id === id);
    if (!run) throw notFound(`task run "${names[ids.indexOf(id)]}" does not exist`);
    if (run.state !== "PENDING" && run.state !== "RUNNING") throw failedPrecondition(`task run "${names[ids.indexOf(id)]}" has already ended (${run.state})`);
  }
  await requestCancel(tx, ids, cancelDetail(reason, canceller));
  await refreshRollout(tx, ref, canceller);
  return ids;
}
