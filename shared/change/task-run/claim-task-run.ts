// Claiming a PENDING task run (contract §12.2, §12.4, §12.7, §12.8): the
// worker holds the run's lock and, unless another run holds it, its target
// database's lock (taken together, RunLocks.tryLockPendingRun). The
// settings come first (the process's cache: the emergency pause and the
// maintenance window); when they let the run start, the caller is told (it
// opens the target's session meanwhile), and one statement starts the run if
// the gate lets it, reading the pause again under its row's lock, the rollout's state,
// the plan checks and the database, and checking that the window is stored
// as the cache had it (claimPendingRun; if not, the claim is made again
// with the settings read from the store). Where the project
// limits a rollout's tasks at once, a transaction takes a slot first. A run
// that cannot start stays PENDING: a closed maintenance window schedules its
// job for the opening; otherwise the change that frees it dispatches it
// again (the run holding the database or a slot settles, the rollout
// resumes, the pause ends), and the reconciler catches a dispatch that was
// lost.
import { type Db, withTransaction } from "../../platform/index.ts";
import { enqueueTaskRun } from "./run-jobs.ts";
import { claimPendingRun } from "./store/run-transitions.store.ts";
import { type SettingReader, storedSettings } from "../../governance/index.ts";
import { claimWaitReason, settingsGateOfClaim } from "./start-gate.ts";
import { takeRolloutSlot } from "./store/run-dispatch.store.ts";

export type Claim = { kind: "started" } | { kind: "waiting"; reason: string } | { kind: "gone" };

/**
 * Call with the run's lock held, and `targetLocked`: whether its target
 * database's lock was taken with it (a run starts only with both).
 * `onGateOpen` is called once the settings let the run start, before the
 * claim's statement is sent.
 */
export async function claimTaskRun(db: Db, settings: SettingReader, runId: number, targetLocked: boolean, onGateOpen: () => void): Promise<Claim> {
  if (!targetLocked) return { kind: "waiting", reason: "database busy" };
  const claim = await claimWith(db, settings, runId, onGateOpen);
  if (claim !== WINDOW_CHANGED) return claim;
  const again = await claimWith(db, storedSettings(db), runId, onGateOpen); // the cache had not heard of the change yet
  // Changed once more: the change re-enqueues every PENDING run (gate-changes.ts).
  return again === WINDOW_CHANGED ? { kind: "waiting", reason: "the maintenance window changed meanwhile" } : again;
}

const WINDOW_CHANGED = "window changed";

async function claimWith(db: Db, settings: SettingReader, runId: number, onGateOpen: () => void): Promise<Claim | typeof WINDOW_CHANGED> {
  const gate = await settingsGateOfClaim(settings);
  if (!gate.open) {
    if (gate.retryAt) await enqueueTaskRun(db, runId, gate.retryAt);
    return { kind: "waiting", reason: gate.reason };
  }
  onGateOpen();
  const windowSeen = await settings.get("MAINTENANCE_WINDOW");
  let answer = await claimPendingRun(db, runId, false, windowSeen);
  if (answer && !answer.started && answer.slotLimited && !answer.windowChanged && (await claimWaitReason(answer)) === undefined) {
    const first = answer;
    answer = await withTransaction(db, async (tx) => ((await takeRolloutSlot(tx, runId)) ? claimPendingRun(tx, runId, true, windowSeen) : first));
  }
  if (!answer) return { kind: "gone" };
  if (answer.started) return { kind: "started" };
  if (answer.windowChanged) return WINDOW_CHANGED;
  return { kind: "waiting", reason: (await claimWaitReason(answer)) ?? "the rollout runs as many tasks at once as its project allows" };
}
