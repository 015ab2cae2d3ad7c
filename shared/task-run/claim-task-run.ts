// Claiming a PENDING task run (contract §12.2, §12.4, §12.7, §12.8): one
// transaction checks the start gate first (so that an emergency pause switched
// on meanwhile is ordered against the claim), then the rollout's parallel
// limit, then takes the target database's lock, and marks the run RUNNING. A
// run that cannot start stays PENDING: a closed maintenance window schedules
// its job for the opening; otherwise the change that frees it dispatches it
// again (the run holding the database or a slot settles, the rollout
// resumes, the pause ends), and the reconciler catches a dispatch that was
// lost.
import { withTransaction, type Db } from "../platform/db.ts";
import { announceRunChange, enqueueTaskRun, startTaskRun, type RunningTaskRun } from "../rollout/task-run-lifecycle.ts";
import type { RunLocks } from "./run-locks.store.ts";
import { claimGate } from "./start-gate.ts";
import { takeRolloutSlot, type PendingRunTarget } from "./task-run-execution.store.ts";

export type Claim = { kind: "started"; run: RunningTaskRun } | { kind: "waiting"; reason: string } | { kind: "gone" };

/** `locks` holds the run's own lock already (taken with `pending`, its target); on "started" it holds the target database's too. */
export async function claimTaskRun(db: Db, locks: RunLocks, runId: number, pending: PendingRunTarget): Promise<Claim> {
  const claim = await claimInTransaction(db, locks, runId, pending);
  if (claim.kind === "started") await announceRunChange(db, { projectId: claim.run.projectId, id: claim.run.rolloutId });
  return claim;
}

async function claimInTransaction(db: Db, locks: RunLocks, runId: number, pending: PendingRunTarget): Promise<Claim> {
  const { instanceId, databaseName } = pending;
  return withTransaction(db, async (tx): Promise<Claim> => {
    const gate = await claimGate(tx, pending.taskId);
    if (!gate.open) {
      if (gate.retryAt) await enqueueTaskRun(tx, runId, gate.retryAt);
      return { kind: "waiting", reason: gate.reason };
    }
    if (!(await takeRolloutSlot(tx, runId))) return { kind: "waiting", reason: "the rollout runs as many tasks at once as its project allows" };
    if (!(await locks.tryLockTarget(instanceId, databaseName))) return { kind: "waiting", reason: "database busy" };
    try {
      const run = await startTaskRun(tx, runId);
      if (run) return { kind: "started", run };
      await locks.unlockTarget(instanceId, databaseName);
      return { kind: "gone" };
    } catch (error) {
      await locks.unlockTarget(instanceId, databaseName).catch(() => undefined);
      throw error;
    }
  });
}
