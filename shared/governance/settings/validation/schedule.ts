// MAINTENANCE_WINDOW and EMERGENCY_PAUSE (contract §7.9, §7.10).
import { timestampNow } from "@bufbuild/protobuf/wkt";
import type { EmergencyPauseSetting, MaintenanceWindowSetting } from "../../../gen/svc/store/setting_operations_pb.js";
import type { SaveContext } from "../setting-rules.ts";
import { emitEvent, quoted } from "../../../platform/index.ts";
import { canonicalDuration, fieldError, requireText } from "./checks.ts";

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

export function validateMaintenanceWindow(value: MaintenanceWindowSetting): void {
  const zone = value.timezone?.trim() || "UTC";
  if (!isTimeZone(zone)) throw fieldError("maintenanceWindow.timezone", `${quoted(value.timezone ?? "")} is not an IANA time zone (e.g. Europe/Berlin)`);
  if (value.enabled && value.windows.length === 0) throw fieldError("maintenanceWindow.windows", "needs at least one window when enabled");
  value.windows.forEach((window, i) => {
    const path = `maintenanceWindow.windows[${i}]`;
    if (window.weekdays.length === 0) throw fieldError(`${path}.weekdays`, "needs at least one day");
    if (window.weekdays.includes(0)) throw fieldError(`${path}.weekdays`, "names an unspecified day");
    if (!HH_MM.test(requireText(window.start, `${path}.start`))) throw fieldError(`${path}.start`, `must be HH:MM, got ${quoted(window.start ?? "")}`);
    window.duration = canonicalDuration(requireText(window.duration, `${path}.duration`), `${path}.duration`, { atMost: "7d" });
  });
}

export function validateEmergencyPause(value: EmergencyPauseSetting): void {
  if (value.enabled && !value.reason?.trim()) throw fieldError("emergencyPause.reason", "is required to turn the pause on");
}

/** The pause records when and by whom it was last switched. */
export function stampPause(current: EmergencyPauseSetting, next: EmergencyPauseSetting, { updater }: SaveContext): void {
  if (current.enabled === next.enabled && current.reason === next.reason) {
    next.updateTime = current.updateTime;
    next.updater = current.updater;
    return;
  }
  next.updateTime = timestampNow();
  next.updater = updater;
}

/** Switching the pause or changing its reason is an event (contract §16.2), in the write's transaction. */
export async function announcePauseChange(before: EmergencyPauseSetting, after: EmergencyPauseSetting, { tx, updater }: SaveContext): Promise<void> {
  if (before.enabled === after.enabled && before.reason === after.reason) return;
  const title = after.enabled ? `Emergency pause on: ${after.reason ?? ""}` : "Emergency pause off";
  await emitEvent(tx, {
    event: "emergencyPause.changed",
    source: "governance",
    actor: updater,
    resource: "settings/EMERGENCY_PAUSE",
    title,
    detail: { enabled: after.enabled ?? false, reason: after.reason ?? "" },
  });
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
