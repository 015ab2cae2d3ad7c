// Ending a run the worker executed, or the reconciler found without its
// worker (contract §12.4, §12.6): in one transaction, the run's end (its
// task, stage, rollout and issue move on), the revision of an applied
// release file (§13.2), and the dispatch of the PENDING runs that waited for
// its target database or a slot of its rollout — their jobs become visible at
// commit, when the target is free again.
import type { CommonQueryMethods } from "slonik";
import type { Metrics } from "../platform/metrics.ts";
import { enqueueTaskRuns, settleTaskRun, type RunOutcome } from "../rollout/task-run-lifecycle.ts";
import { recordRevision } from "../revision/revision-gate.ts";
import { appendRunDetail, runsToDispatch, type RunTarget } from "./task-run-execution.store.ts";

/**
 * `applied`: the run applied its script (DONE by execution, not a release
 * file found already applied), so a release-sourced run's revision is
 * recorded. False when the run had already ended: then nothing is written.
 */
export async function settleInTransaction(tx: CommonQueryMethods, run: RunTarget, outcome: RunOutcome, applied: boolean): Promise<boolean> {
  if (!(await settleTaskRun(tx, run.id, outcome))) return false;
  if (applied && outcome.state === "DONE" && run.releaseFile) {
    const { instanceId, databaseName, releaseFile, creator } = run;
    const recorded = await recordRevision(tx, { instanceId, databaseName, releaseFile, taskRunId: run.id, creator });
    if (recorded.kind === "kept") await appendRunDetail(tx, run.id, recorded.message);
  }
  await enqueueTaskRuns(tx, await runsToDispatch(tx, run));
  return true;
}

/** svc_task_run_total{state}: call after the settling transaction committed. */
export function countSettled(metrics: Metrics, outcome: RunOutcome): void {
  metrics.taskRuns.inc({ state: outcome.state.toLowerCase() });
}
