// EMERGENCY_PAUSE as the rest of the service reads it (contract §7.10,
// §12.7): while it is on, no task run starts (the start gate) and :advance,
// :resume, batchRun and SQL Editor writes are refused with its reason. What
// switching it does is in gate-changes.ts.
import type { EmergencyPauseSetting } from "../../gen/svc/v1/setting_operations_pb.js";
import type { SettingReader } from "../../governance/settings/setting-cache.ts";
import { settingKind } from "../../governance/settings/setting-catalog.ts";
import { effectiveValue } from "../../governance/settings/setting-value.ts";

/** The pause's reason while it is on; undefined while it is off. */
export async function emergencyPauseReason(settings: SettingReader): Promise<string | undefined> {
  const value = effectiveValue(settingKind("EMERGENCY_PAUSE"), await settings.get("EMERGENCY_PAUSE")) as EmergencyPauseSetting;
  return value.enabled ? (value.reason ?? "") : undefined;
}
