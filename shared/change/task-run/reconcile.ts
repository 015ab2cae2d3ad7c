// The task-run reconciler (contract §12.6), run by the leader every 10 s. It
// is a timer of the leader runners, not a job, so that it works when the job
// queue does not. One pass:
// - settles RUNNING runs whose lock no worker holds (their worker died, or
//   lost its connection). Their target session is ended first (terminated if
//   it still runs), so nothing more can be applied; then a transactional
//   PostgreSQL run is DONE if its transaction committed, else FAILED "worker
//   lost during execution; rolled back"; a statement-by-statement run is
//   FAILED with the statements its log shows applied;
// - follows up every RUNNING rollout (progress.ts followUpRollout), for a
//   worker that died between settling a run and moving its rollout on;
// - unlocks the jobs held by worker pools that are gone (pool-presence.store.ts),
//   and drops the locked jobs of runs that nobody executes (left by a worker
//   that lost the store while finishing them; its pool lives on);
// - dispatches PENDING runs left without a job that could start (unless the
//   emergency pause is on; a run whose gate is closed for another reason is
//   tried again each pass, and waits anew).
import type { CommonQueryMethods } from "slonik";
import { errorMessage, type LostSession, splitStatements, withTarget } from "../../inventory/index.ts";
import { type Db, type Logger, type Metrics, type SecretBox, unlockJobsOfGonePools, withTransaction } from "../../platform/index.ts";
import type { RunOutcome } from "../pipeline/task-runs.ts";
import { emergencyPauseReason, storedSettings } from "../../governance/index.ts";
import { appliedText } from "./run-detail.ts";
import { enqueueTaskRun } from "./run-jobs.ts";
import { runConnection } from "./run-connection.ts";
import { tryRunLockForTransaction } from "./run-locks.store.ts";
import { countSettled, writeSettlement } from "./settle-run.ts";
import { dropOrphanedRunJobs, findStrandedRuns } from "./store/run-dispatch.store.ts";
import { findLostRun, type LostRun } from "./store/run-execution.store.ts";
import { nextUnloggedStatement } from "./store/task-run-log.store.ts";
import { runningRunIds } from "./store/task-run.store.ts";
import { followUpRollout } from "../pipeline/progress.ts";
import { rolloutName, taskRunName } from "../rollout/rollout-names.ts";
import { runningRollouts } from "../rollout/rollout.store.ts";

export interface ReconcileDeps {
  db: Db;
  secrets: SecretBox;
  metrics: Metrics;
  logger: Logger;
}

export const RECONCILE_EVERY_MS = 10_000;
const WORKER_LOST = "worker lost during execution";
const STRANDED_BATCH = 500;
/** A run's job stays locked for milliseconds unless the run executes (RUNNING). */
const ORPHANED_JOB_GRACE_SECONDS = 15;

export async function reconcileTaskRuns(deps: ReconcileDeps): Promise<void> {
  for (const runId of await runningRunIds(deps.db)) {
    await settleIfLost(deps, runId).catch((error: unknown) => deps.logger.warn({ error, task_run_id: runId }, "could not settle a task run that lost its worker"));
  }
  // A worker that died between settling a run and following up its rollout left the rollout behind.
  for (const rollout of await runningRollouts(deps.db)) {
    await followUpRollout(deps.db, rollout, "system").catch((error: unknown) => deps.logger.warn({ error, rollout: rolloutName(rollout) }, "could not follow up a rollout"));
  }
  const gone = await unlockJobsOfGonePools(deps.db);
  if (gone.length > 0) deps.logger.warn({ pools: gone }, "unlocked the jobs of worker pools that are gone");
  const orphaned = await dropOrphanedRunJobs(deps.db, ORPHANED_JOB_GRACE_SECONDS);
  if (orphaned.length > 0) deps.logger.warn({ task_run_ids: orphaned }, "dropped the locked jobs of task runs that nobody executes");
  // While the emergency pause is on no run may start; lifting it dispatches every PENDING run.
  if ((await emergencyPauseReason(storedSettings(deps.db))) !== undefined) return;
  const stranded = await findStrandedRuns(deps.db, STRANDED_BATCH);
  if (stranded.length === 0) return;
  await withTransaction(deps.db, async (tx) => {
    for (const run of stranded) await enqueueTaskRun(tx, run.id, run.runAt);
  });
  deps.logger.info({ task_run_ids: stranded.map((r) => r.id) }, "dispatched PENDING task runs that had no job");
}

async function settleIfLost(deps: ReconcileDeps, runId: number): Promise<void> {
  let outcome: RunOutcome | undefined;
  const settled = await withTransaction(deps.db, async (tx) => {
    if (!(await tryRunLockForTransaction(tx, runId))) return undefined; // its worker holds it
    const run = await findLostRun(tx, runId);
    if (!run) return undefined;
    outcome = await lostRunOutcome(deps, tx, run);
    return (await writeSettlement(tx, run, outcome, outcome.state === "DONE")) ? run : undefined;
  });
  if (!settled || !outcome) return;
  countSettled(deps.metrics, outcome);
  const rollout = { projectId: settled.projectId, id: settled.rolloutId };
  await followUpRollout(deps.db, rollout, "system");
  deps.logger.warn({ task_run: taskRunName(rollout, settled.taskId, settled.id), state: outcome.state, detail: outcome.detail }, "settled a task run that lost its worker");
}

async function lostRunOutcome(deps: ReconcileDeps, db: CommonQueryMethods, run: LostRun): Promise<RunOutcome> {
  const failed = (detail: string, nextStatement?: number): RunOutcome => ({ state: "FAILED", detail: `${WORKER_LOST}; ${detail}`, error: WORKER_LOST, nextStatement });
  // The session is on record before anything of the script can be applied (a transactional script's COMMIT waits for it).
  if (!run.session) return failed("its session on the target was not on record yet: nothing was applied", run.firstStatement);
  let fate: LostSession | undefined;
  let problem = "";
  try {
    const session = run.session;
    fate = await withTarget(await runConnection(db, deps.secrets, run.instanceId), (target) => target.endLostSession(session));
  } catch (error) {
    problem = errorMessage(error);
  }
  const statementCount = splitStatements(run.engine, run.statement).length;
  if (run.transactional) {
    if (fate?.committed === true) return { state: "DONE", detail: "worker lost after its transaction committed: every statement was applied", nextStatement: statementCount };
    if (fate?.committed === false) return failed("rolled back", run.firstStatement);
    return failed(`whether its transaction committed could not be checked${problem ? ` (${problem})` : ""}`);
  }
  const next = await nextUnloggedStatement(db, run.id, run.firstStatement);
  const running = next < statementCount ? `; statement ${next + 1} may have been applied (it may have been running)` : "";
  const unended = problem ? `; its session on the target could not be ended (${problem})` : "";
  return failed(`${appliedText(run.firstStatement, next)} according to the log${running}${unended}`, next);
}
