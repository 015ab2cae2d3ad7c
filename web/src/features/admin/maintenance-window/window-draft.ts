// MAINTENANCE_WINDOW (contract §7.9) as the page edits it: on or off, the
// time zone, and the weekly windows in which task runs may start.
import { type MaintenanceWindowSetting, MaintenanceWindowSetting_Weekday as Weekday } from "@gen/svc/v1/setting_operations_pb.js";

export interface WindowRow {
  weekdays: Weekday[];
  /** HH:MM in the time zone. */
  start: string;
  duration: string;
}

export interface WindowDraft {
  enabled: boolean;
  timezone: string;
  windows: WindowRow[];
}

export const WEEKDAYS = [Weekday.MONDAY, Weekday.TUESDAY, Weekday.WEDNESDAY, Weekday.THURSDAY, Weekday.FRIDAY, Weekday.SATURDAY, Weekday.SUNDAY];

export function windowDraftOf(setting: MaintenanceWindowSetting): WindowDraft {
  return {
    enabled: setting.enabled === true,
    timezone: setting.timezone ?? "",
    windows: setting.windows.map((window) => ({ weekdays: [...window.weekdays], start: window.start ?? "", duration: window.duration ?? "" })),
  };
}

export function newWindowRow(): WindowRow {
  return { weekdays: [Weekday.SATURDAY], start: "02:00", duration: "2h" };
}

export function windowPayloadOf(draft: WindowDraft) {
  return {
    enabled: draft.enabled,
    timezone: draft.timezone.trim(),
    // In the week's order, whatever order they were ticked in.
    windows: draft.windows.map((row) => ({ weekdays: WEEKDAYS.filter((day) => row.weekdays.includes(day)), start: row.start, duration: row.duration.trim() })),
  };
}
