// Asking task runs to stop (contract §12.5, §12.7). A PENDING run ends
// CANCELED at once. A RUNNING run gets its reason recorded and a notice to
// the worker executing it, which interrupts the statement on the target,
// stops at the statement boundary, rolls back a transactional run and settles
// CANCELED with the reason as detail. A suspension (emergency pause) is a
// cancel whose reason starts with SUSPENSION_PREFIX: its run's task returns
// to PENDING and later continues from the run's next statement; a
// non-transactional run finishes its running statement first. A cancel
// requested after a suspension wins (the task does not continue); the first
// cancel's reason stands. Rows are locked in the order used everywhere
// (rollout, task, task run).
import type { CommonQueryMethods } from "slonik";
import { findRollout } from "../rollout/rollout.store.ts";
import { settleTaskRun } from "../pipeline/task-runs.ts";
import { findTaskRun } from "./store/task-run.store.ts";
import { lockTask } from "../rollout/task.store.ts";
import { noticeCancels, recordCancelReason } from "./store/run-execution.store.ts";

/** The detail of a run suspended by the emergency pause starts so (§12.7). */
export const SUSPENSION_PREFIX = "suspended by emergency pause: ";

export function isSuspension(reason: string): boolean {
  return reason.startsWith(SUSPENSION_PREFIX);
}

export interface CancelOptions {
  /** Emergency-pause suspension: RUNNING runs only (PENDING ones stay, held by the start gate); `reason` must start with SUSPENSION_PREFIX. */
  suspend?: boolean;
}

export async function requestCancel(tx: CommonQueryMethods, runIds: readonly number[], reason: string, options: CancelOptions = {}): Promise<void> {
  const suspend = options.suspend === true;
  if (suspend !== isSuspension(reason)) throw new Error(`a suspension's reason, and only its, starts with "${SUSPENSION_PREFIX}"`);
  const notify: number[] = [];
  for (const id of [...new Set(runIds)].sort((a, b) => a - b)) {
    const seen = await findTaskRun(tx, id);
    if (seen?.state !== "PENDING" && seen?.state !== "RUNNING") continue;
    await findRollout(tx, seen.rollout, true);
    await lockTask(tx, seen.taskId);
    const run = (await findTaskRun(tx, id))!;
    if (run.state === "PENDING" && !suspend) await settleTaskRun(tx, id, { state: "CANCELED", detail: reason });
    if (run.state !== "RUNNING") continue;
    const standing = run.cancelReason;
    if (standing !== undefined && !(isSuspension(standing) && !suspend)) continue;
    if (await recordCancelReason(tx, id, reason)) notify.push(id);
  }
  await noticeCancels(tx, notify);
}
