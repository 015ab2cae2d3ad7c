// Ending a run the worker executed, or the reconciler found without its
// worker (contract §12.4, §12.6): the run's end with the rest of its log
// (its task, stage, rollout and issue move on), the revision of an applied
// release file (§13.2), and the dispatch of the PENDING runs that waited for
// its target database or a slot of its rollout. The target's lock is let go
// before: a run dispatched meanwhile finds the ending run still RUNNING and
// waits, and is dispatched again here.
import type { CommonQueryMethods } from "slonik";
import type { StatementLog } from "../../inventory/index.ts";
import { type Db, type Metrics, withTransaction } from "../../platform/index.ts";
import { settleTaskRun, type RunOutcome } from "../pipeline/task-runs.ts";
import { recordRevision } from "../revision/revision-gate.ts";
import { dispatchWaitingRuns, targetWaitersDispatch, type RunTarget } from "./store/run-dispatch.store.ts";
import { appendRunDetail } from "./store/run-execution.store.ts";

/**
 * Settles a run (see writeSettlement). An end that writes nothing more
 * than the run, its task and its log is one statement with the dispatch of
 * the runs waiting for its database, where the rollout has no parallel
 * limit (it commits without waiting for the WAL flush when the run ran in
 * one transaction, markRunEnded); under a limit the dispatch is a statement
 * of its own after the end (ends of one rollout at once would each count
 * the others as running): a worker lost between the two leaves the waiting
 * runs without a job, which the reconciler gives them. Anything more (a
 * continuation, a failure's issue event, a revision) is written in one
 * transaction with the end.
 */
export async function settleRun(
  db: Db,
  run: RunTarget & { slotsLimited: boolean },
  outcome: RunOutcome,
  applied: boolean,
  log: readonly StatementLog[] = [],
): Promise<boolean> {
  const endOnly = outcome.continueFrom === undefined && outcome.state !== "FAILED" && !revisionOf(run, outcome, applied);
  if (endOnly && !run.slotsLimited) return settleTaskRun(db, run.id, outcome, log, targetWaitersDispatch(run));
  if (endOnly) return writeSettlement(db, run, outcome, applied, log);
  return withTransaction(db, (tx) => writeSettlement(tx, run, outcome, applied, log));
}

/**
 * Writes a run's settlement on `db`: a transaction's connection, or the pool
 * for an end that writes nothing more (settleRun). `applied`: the run applied
 * its script (DONE by execution, not a release file found already applied),
 * so a release-sourced run's revision is recorded. False when the run had
 * already ended: then nothing is written.
 */
export async function writeSettlement(
  db: CommonQueryMethods,
  run: RunTarget,
  outcome: RunOutcome,
  applied: boolean,
  log: readonly StatementLog[] = [],
): Promise<boolean> {
  if (!(await settleTaskRun(db, run.id, outcome, log))) return false;
  const releaseFile = revisionOf(run, outcome, applied);
  if (releaseFile) {
    const { instanceId, databaseName, creator } = run;
    const recorded = await recordRevision(db, { instanceId, databaseName, releaseFile, taskRunId: run.id, creator });
    if (recorded.kind === "kept") await appendRunDetail(db, run.id, recorded.message);
  }
  await dispatchWaitingRuns(db, run);
  return true;
}

/** The release file whose revision the end records (§13.2), if any. */
function revisionOf(run: RunTarget, outcome: RunOutcome, applied: boolean): RunTarget["releaseFile"] {
  return applied && outcome.state === "DONE" ? run.releaseFile : undefined;
}

/** svc_task_run_total{state}: call after the settling transaction committed. */
export function countSettled(metrics: Metrics, outcome: RunOutcome): void {
  metrics.taskRuns.inc({ state: outcome.state.toLowerCase() });
}
