// A task run's moves as the pipeline makes them (contract §12.2, §12.4):
//
//   task NOT_STARTED, FAILED or CANCELED ──createRuns──▶ PENDING, with a new PENDING run and its job
//   run PENDING ──the worker's claim (task-run/claim-task-run.ts)──▶ RUNNING
//   run PENDING or RUNNING ──settleTaskRun──▶ DONE, FAILED or CANCELED, settled once;
//     its task follows (back to PENDING with a new run after a suspension, SKIPPED when already applied)
//
// A failure is an event in the issue's history and emits taskRun.failed.
// Settling moves the task; its stage, rollout and issue follow through
// progress.ts (followUpRollout). Rows are locked in one order everywhere
// (rollout, task, task run), so concurrent starts, settlements and actions
// never deadlock.
import type { CommonQueryMethods } from "slonik";
import type { StatementLog } from "../../inventory/index.ts";
import { noticeChange } from "../../platform/index.ts";
import { addIssueEvent } from "../issue/issue-events.ts";
import { rolloutName, taskRunName, type RolloutRef } from "../rollout/rollout-names.ts";
import { findRollout } from "../rollout/rollout.store.ts";
import { markRunEnded, type JobsOnEnd, type TaskEnd } from "../task-run/store/run-transitions.store.ts";
import { insertPendingRuns, type FinalRunState } from "../task-run/store/task-run.store.ts";
import { rolloutSubject } from "./event-subjects.ts";
import { emit } from "./events.ts";

/** New PENDING runs for the tasks (each from its next statement), their tasks PENDING, their jobs enqueued. */
export async function createRuns(tx: CommonQueryMethods, ref: RolloutRef, taskIds: readonly number[], creator: string, runAt?: Date): Promise<number[]> {
  return insertPendingRuns(tx, ref, taskIds, creator, runAt);
}

/**
 * The notice of a run started or settled, sent after its transaction
 * committed, outside any transaction: a notice inside a writing transaction
 * holds the server's notification lock through the commit's WAL flush, which
 * would put the commits of every concurrent run in one line. The change has
 * committed whatever becomes of its notice, so a notice that cannot be sent
 * (the store is unreachable) is dropped rather than failing the run: the
 * watchers read again when their own connection comes back.
 */
export async function announceRunChange(db: CommonQueryMethods, ref: RolloutRef): Promise<void> {
  await noticeChange(db, rolloutName(ref)).catch(() => undefined);
}

export interface RunOutcome {
  state: FinalRunState;
  detail: string;
  error?: string;
  affectedRows?: number;
  /** Index of the first statement not applied (recorded on the task). */
  nextStatement?: number;
  /** Emergency-pause suspension: the task returns to PENDING with a new run from this statement. */
  continueFrom?: number;
  /** The run found its change already applied (§13.2): the task is SKIPPED with this reason. */
  skipTask?: string;
}

/**
 * Ends a PENDING or RUNNING run, sets its task and writes the rest of its
 * log (`log`); false when it had already ended (then nothing changes). It
 * takes no rollout lock, so that the runs of a large rollout settle side by
 * side: after the commit, call followUpRollout, which announces the change
 * (or, holding the rollout's lock, refreshRollout).
 */
export async function settleTaskRun(tx: CommonQueryMethods, runId: number, outcome: RunOutcome, log: readonly StatementLog[] = [], jobsOnEnd?: JobsOnEnd): Promise<boolean> {
  const end = { state: outcome.state, detail: outcome.detail, error: outcome.error ?? "", affectedRows: outcome.affectedRows ?? 0 };
  const run = await markRunEnded(tx, runId, end, taskEndOf(outcome), log, jobsOnEnd);
  if (!run) return false;
  if (outcome.continueFrom !== undefined) await createRuns(tx, run.rollout, [run.taskId], run.creator);
  if (outcome.state === "FAILED") await recordFailure(tx, run.rollout, run.taskId, runId, outcome, run.creator);
  return true;
}

/** The task's state after its run's end: back to PENDING to continue after a suspension, SKIPPED when already applied, else the run's. */
function taskEndOf(outcome: RunOutcome): TaskEnd {
  if (outcome.continueFrom !== undefined) return { state: "PENDING", nextStatement: outcome.continueFrom };
  if (outcome.skipTask !== undefined) return { state: "SKIPPED", skippedReason: outcome.skipTask };
  return { state: outcome.state, nextStatement: outcome.nextStatement };
}

/** A failed task is an event in its issue's history (§11.1), and taskRun.failed. */
async function recordFailure(tx: CommonQueryMethods, ref: RolloutRef, taskId: number, runId: number, outcome: RunOutcome, actor: string): Promise<void> {
  const rollout = await findRollout(tx, ref);
  if (!rollout) return;
  const taskRun = taskRunName(ref, taskId, runId);
  const error = outcome.error ?? "";
  if (rollout.issueId) {
    await addIssueEvent(tx, { projectId: ref.projectId, issueId: rollout.issueId }, { kind: "TASK_FAILED", taskRun, error }, actor, outcome.detail);
  }
  await emit(tx, { ...rolloutSubject(rollout, taskRun, actor), event: "taskRun.failed", detail: { error, detail: outcome.detail } });
}
