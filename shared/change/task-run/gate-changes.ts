// What a change of the start gate's workspace-wide inputs does (contract
// §12.7, §12.8), run by the settings write in its own transaction (the
// setting's afterSave), so the effects are exactly as durable as the change
// and hold across replicas: a suspension is recorded on the runs (their
// executors stop them on the target) and re-enqueued jobs are in the queue
// at commit. A worker claiming a run at the moment the emergency pause is
// switched on is ordered against the switch by the setting's row lock (the
// write locks it for update first; the claim reads it under a share lock,
// store/run-transitions.store.ts claimPendingRun).
import { equals } from "@bufbuild/protobuf";
import type { CommonQueryMethods } from "slonik";
import { MaintenanceWindowSettingSchema, type EmergencyPauseSetting, type MaintenanceWindowSetting } from "../../gen/svc/store/setting_operations_pb.js";
import { requestCancel } from "./cancel.ts";
import { enqueueTaskRuns } from "./run-jobs.ts";
import { pendingRunStarts, runningRunIds } from "./store/task-run.store.ts";

/** EMERGENCY_PAUSE on suspends every RUNNING run; off re-enqueues every PENDING one, so pending work resumes by itself. */
export async function applyEmergencyPauseSwitch(before: EmergencyPauseSetting, after: EmergencyPauseSetting, tx: CommonQueryMethods): Promise<void> {
  if (after.enabled && !before.enabled) {
    await requestCancel(tx, await runningRunIds(tx), `suspended by emergency pause: ${after.reason ?? ""}`, { suspend: true });
  } else if (before.enabled && !after.enabled) {
    await reconsiderPendingRuns(tx);
  }
}

/** Any change of MAINTENANCE_WINDOW (moved, enabled, disabled) has every PENDING run pass the gate again now. */
export async function applyMaintenanceWindowChange(before: MaintenanceWindowSetting, after: MaintenanceWindowSetting, tx: CommonQueryMethods): Promise<void> {
  if (!equals(MaintenanceWindowSettingSchema, before, after)) await reconsiderPendingRuns(tx);
}

/**
 * Re-enqueues every PENDING run (its job replaces any waiting one, e.g. one
 * scheduled for a window's opening), each no earlier than the start its
 * batchRun asked for.
 */
async function reconsiderPendingRuns(tx: CommonQueryMethods): Promise<void> {
  const byStart = new Map<number | undefined, number[]>();
  for (const run of await pendingRunStarts(tx)) {
    const key = run.runAt?.getTime();
    const ids = byStart.get(key) ?? [];
    ids.push(run.id);
    byStart.set(key, ids);
  }
  for (const [start, ids] of byStart) await enqueueTaskRuns(tx, ids, start === undefined ? undefined : new Date(start));
}
