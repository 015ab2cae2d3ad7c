// Claiming a PENDING task run (contract §12.2, §12.4, §12.7, §12.8): the
// worker holds the run's lock and, unless another run holds it, its target
// database's lock (taken together, RunLocks.tryLockPendingRun). Then one
// transaction checks the start gate first (so that an emergency pause
// switched on meanwhile is ordered against the claim), then the rollout's
// parallel limit where its project sets one, and marks the run RUNNING. A
// run that cannot start stays PENDING: a closed maintenance window schedules
// its job for the opening; otherwise the change that frees it dispatches it
// again (the run holding the database or a slot settles, the rollout
// resumes, the pause ends), and the reconciler catches a dispatch that was
// lost.
import { withTransaction, type Db } from "../platform/db.ts";
import { announceRunChange, enqueueTaskRun, startTaskRun, type RunningTaskRun } from "../rollout/task-run-lifecycle.ts";
import { claimGate } from "./start-gate.ts";
import { takeRolloutSlot, type PendingRunTarget } from "./task-run-execution.store.ts";

export type Claim = { kind: "started"; run: RunningTaskRun } | { kind: "waiting"; reason: string } | { kind: "gone" };

/** Call with the run's lock held (taken with `pending`, its target); on "started" the worker must hold the target database's lock too. */
export async function claimTaskRun(db: Db, runId: number, pending: PendingRunTarget): Promise<Claim> {
  if (!pending.targetLocked) return { kind: "waiting", reason: "database busy" };
  const claim = await claimInTransaction(db, runId, pending.taskId);
  if (claim.kind === "started") await announceRunChange(db, { projectId: claim.run.projectId, id: claim.run.rolloutId });
  return claim;
}

async function claimInTransaction(db: Db, runId: number, taskId: number): Promise<Claim> {
  return withTransaction(db, async (tx): Promise<Claim> => {
    const gate = await claimGate(tx, taskId);
    if (!gate.open) {
      if (gate.retryAt) await enqueueTaskRun(tx, runId, gate.retryAt);
      return { kind: "waiting", reason: gate.reason };
    }
    if (gate.slotLimited && !(await takeRolloutSlot(tx, runId))) return { kind: "waiting", reason: "the rollout runs as many tasks at once as its project allows" };
    const run = await startTaskRun(tx, runId);
    return run ? { kind: "started", run } : { kind: "gone" };
  });
}
