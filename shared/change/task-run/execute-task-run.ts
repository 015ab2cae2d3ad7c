// Executing one task run: the taskRun.execute job (contract §12.4–§12.6).
// The run's lock is taken on a connection of its own and held until the run
// is settled; a job that does not get it, or finds the run no longer PENDING,
// does nothing (a run never executes twice). Then the claim
// (claim-task-run.ts), while the target's session opens (run-session.ts);
// the release gate of a release-sourced run (§13.2: already applied → DONE,
// applied with another checksum → FAILED, before touching the target); the
// script on the target through the instance's ADMIN data source with the
// project's timeouts, the statement log, and the settlement. A cancel request
// reaches the target through the process's cancel watch. If the lock
// connection is lost the worker stops the script (the reconciler may take the
// run over). A worker shutting down lets its running scripts go on; one still
// running when the process exits is settled by the reconciler. Its work logs
// under the run's resources (run-logging.ts).
import { type Db, type Logger, type Metrics, type SecretBox, withLogFields } from "../../platform/index.ts";
import { errorMessage, type ExecuteOutcome, type StatementLog } from "../../inventory/index.ts";
import type { RolloutFollowUps } from "../rollout/follow-ups.ts";
import type { RunOutcome } from "../pipeline/task-runs.ts";
import { releaseGate, type ReleaseGateDecision } from "../revision/revision-gate.ts";
import type { SettingReader } from "../../governance/index.ts";
import { isSuspension } from "./cancel.ts";
import type { CancelWatch } from "./cancel-watch.ts";
import { claimTaskRun } from "./claim-task-run.ts";
import { doneDetail, failedDetail, stoppedDetail, type ScriptEnd } from "./run-detail.ts";
import { logRunEnd, logRunStart, logStatement, runLogFields } from "./run-logging.ts";
import { RunLocks, type ExecutableRun, type LockConnections, type LockedRun } from "./run-locks.store.ts";
import { RunSession } from "./run-session.ts";
import { countSettled, settleRun } from "./settle-run.ts";
import { findCancelReason, recordRunSession } from "./store/run-execution.store.ts";
import { TaskRunLogWriter } from "./task-run-log-writer.ts";

export interface ExecutionDeps {
  db: Db;
  /** The metadata store: each run holds its locks on a connection of its own. */
  url: string;
  secrets: SecretBox;
  metrics: Metrics;
  logger: Logger;
  cancels: CancelWatch;
  /** The process's lock connections (one leased per run). */
  lockConnections: LockConnections;
  /** The process's follow-ups of runs started and ended. */
  followUps: RolloutFollowUps;
  /** The process's settings (the start gate's emergency pause and maintenance window). */
  settings: SettingReader;
}

const SETTLE_ATTEMPTS = 5;
const SETTLE_RETRY_MS = 500;

export async function executeTaskRun(deps: ExecutionDeps, runId: number): Promise<void> {
  const lost = new AbortController();
  const stop = new AbortController();
  const locks = await RunLocks.open(deps.lockConnections, (error) => lost.abort(error));
  const unwatch = deps.cancels.watch(runId, (reason) => stop.abort(isSuspension(reason) ? "suspend" : "cancel"));
  let settled = false;
  try {
    const locked = await locks.tryLockPendingRun(runId);
    if (!locked) return;
    // A lost lock stops the script like a cancel.
    settled = await withLogFields(runLogFields(locked.run), () => claimAndRun(deps, locks, locked, AbortSignal.any([stop.signal, lost.signal])));
  } finally {
    unwatch();
    await locks.close(settled);
  }
}

/** Claims the locked run and, once it started, runs and settles it; answers whether it was settled. */
async function claimAndRun(deps: ExecutionDeps, locks: RunLocks, locked: LockedRun, stop: AbortSignal): Promise<boolean> {
  const { run } = locked;
  const session = new RunSession(deps.secrets, run);
  try {
    const claim = await claimTaskRun(deps.db, deps.settings, run.id, locked.targetLocked, () => session.open());
    if (claim.kind === "started") deps.followUps.afterStart({ projectId: run.projectId, id: run.rolloutId });
    if (claim.kind === "waiting") deps.logger.debug({ reason: claim.reason }, "task run waits");
    if (claim.kind !== "started") return false;
    await runClaimed(deps, locks, run, session, stop);
    return true;
  } finally {
    await session.close();
  }
}

/** `stop` aborts when the run is asked to stop or its locks are lost. */
async function runClaimed(deps: ExecutionDeps, locks: RunLocks, run: ExecutableRun, session: RunSession, stop: AbortSignal): Promise<void> {
  const startedAt = performance.now();
  logRunStart(deps.logger, run);
  const decision: ReleaseGateDecision = run.releaseFile ? await releaseGate(deps.db, { ...run, releaseFile: run.releaseFile }) : { kind: "apply" };
  if (decision.kind !== "apply") {
    const outcome: RunOutcome =
      decision.kind === "skip"
        ? { state: "DONE", detail: decision.reason, skipTask: decision.reason }
        : { state: "FAILED", detail: `not run: ${decision.message}`, error: decision.message };
    await settle(deps, locks, run, outcome, false);
    return logRunEnd(deps.logger, outcome, startedAt);
  }
  const log = new TaskRunLogWriter(deps.db, run.id);
  const outcome = await executeOnTarget(deps, run, session, log, stop);
  await settle(deps, locks, run, outcome, true, log.takeRest());
  logRunEnd(deps.logger, outcome, startedAt);
}

/**
 * Settles (retrying a failing store a few times), with the rest of the run's
 * log. The target's lock is let go first, so that the runs the settlement
 * dispatches find it free.
 */
async function settle(deps: ExecutionDeps, locks: RunLocks, run: ExecutableRun, outcome: RunOutcome, applied: boolean, logRest: readonly StatementLog[] = []): Promise<void> {
  await locks.unlockTarget(run.instanceId, run.databaseName).catch(() => undefined); // a lost connection released it already
  for (let attempt = 1; ; attempt++) {
    try {
      if (await settleRun(deps.db, run, outcome, applied, logRest)) {
        countSettled(deps.metrics, outcome);
        deps.followUps.afterEnd({ projectId: run.projectId, id: run.rolloutId }, run.creator, run.stageId);
      } else deps.logger.warn("task run had been settled meanwhile (its lock was lost); this worker's outcome is dropped");
      return;
    } catch (error) {
      if (attempt >= SETTLE_ATTEMPTS) throw error;
      deps.logger.warn({ error, attempt }, "could not settle the task run; retrying");
      await new Promise((resolve) => setTimeout(resolve, SETTLE_RETRY_MS * 2 ** (attempt - 1)));
    }
  }
}

/** Runs the script; the log entries not yet written are left in `log` for the settlement. */
async function executeOnTarget(deps: ExecutionDeps, run: ExecutableRun, session: RunSession, log: TaskRunLogWriter, stop: AbortSignal): Promise<RunOutcome> {
  let transactional: boolean | undefined;
  try {
    const result = await session.execute({
      script: run.statement,
      firstStatement: run.firstStatement,
      signal: stop,
      onSession: async (target, inTransaction) => {
        transactional = inTransaction;
        log.eachAtOnce = !inTransaction;
        await recordRunSession(deps.db, run.id, target, inTransaction);
      },
      onStatement: (entry) => {
        logStatement(deps.logger, entry);
        return log.add(entry);
      },
    });
    return await outcomeOf(deps, run, result);
  } catch (error) {
    const message = errorMessage(error);
    const applied = transactional === false ? "the log shows the statements applied" : "nothing was applied";
    return { state: "FAILED", detail: `the run could not complete: ${message}; ${applied}`, error: message };
  }
}

async function outcomeOf(deps: ExecutionDeps, run: ExecutableRun, result: ExecuteOutcome): Promise<RunOutcome> {
  const end: ScriptEnd = { ...result, firstStatement: run.firstStatement };
  const facts = { affectedRows: result.affectedRows, nextStatement: result.nextStatement };
  if (result.state === "done") return { state: "DONE", detail: doneDetail(end), ...facts };
  if (result.state === "failed") return { state: "FAILED", detail: failedDetail({ ...end, failedStatement: result.failedStatement }), error: result.error, ...facts };
  // Stopped: by a cancel request (the latest reason stands: a cancel after a suspension wins), or by the lost lock.
  const reason = await findCancelReason(deps.db, run.id);
  if (reason === undefined) return { state: "FAILED", detail: stoppedDetail(end), error: "the worker lost its connection to the metadata store", ...facts };
  if (isSuspension(reason)) return { state: "CANCELED", detail: reason, ...facts, continueFrom: result.nextStatement };
  return { state: "CANCELED", detail: reason, ...facts };
}
