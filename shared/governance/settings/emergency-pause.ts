// EMERGENCY_PAUSE as the rest of the service reads it (contract §7.10,
// §12.7): while it is on, no task run starts (the start gate) and :advance,
// :resume, batchRun and SQL Editor writes are refused with its reason. What
// switching it does is in shared/change/task-run/gate-changes.ts.
import { failedPrecondition } from "../../platform/index.ts";
import type { SettingReader } from "./setting-cache.ts";
import { readSetting } from "./setting-value.ts";

/** The pause's reason while it is on; undefined while it is off. */
export async function emergencyPauseReason(settings: SettingReader): Promise<string | undefined> {
  const value = await readSetting(settings, "EMERGENCY_PAUSE");
  return value.enabled ? (value.reason ?? "") : undefined;
}

/** Refuses a change while the pause is on: failed_precondition with its reason (contract §1.3). */
export async function refuseDuringEmergencyPause(settings: SettingReader): Promise<void> {
  const reason = await emergencyPauseReason(settings);
  if (reason !== undefined) throw failedPrecondition(`changes are frozen by the emergency pause: ${reason}`);
}
