// When the MAINTENANCE_WINDOW lets a task run start (contract §7.9, §12.8).
// Windows are wall-clock times of the setting's IANA time zone: a window
// opens on each of its weekdays at `start` local time and stays open for its
// duration (elapsed time, so it may cross midnight and run into the next
// day). A local start that a daylight-saving shift skips opens at the same
// distance past the shift, and one that the shift repeats opens at its first
// occurrence (as Temporal's "compatible" disambiguation).
import { parseDuration } from "../../platform/index.ts";

/** What a schedule is made of: MAINTENANCE_WINDOW's fields (weekdays 1 = Monday … 7 = Sunday). */
export interface MaintenanceWindowFields {
  enabled?: boolean;
  timezone?: string;
  windows: readonly { weekdays: readonly number[]; start?: string; duration?: string }[];
}

export interface MaintenanceWindow {
  /** ISO weekdays: 1 = Monday … 7 = Sunday (as MaintenanceWindowSetting.Weekday). */
  weekdays: readonly number[];
  /** HH:MM, local time. */
  start: string;
  durationMs: number;
}

export interface MaintenanceSchedule {
  timeZone: string;
  windows: readonly MaintenanceWindow[];
}

const DAY_MS = 86_400_000;
/** A window lasts at most 7 days (validation), so one opened 8 local days ago has closed. */
const DAYS_AROUND = 8;

/** The schedule of an enabled setting; undefined when the setting is off (task runs start any time). */
export function maintenanceSchedule(setting: MaintenanceWindowFields): MaintenanceSchedule | undefined {
  if (!setting.enabled) return undefined;
  return {
    timeZone: setting.timezone || "UTC",
    windows: setting.windows.map((w) => ({
      weekdays: w.weekdays,
      start: w.start ?? "00:00",
      durationMs: parseDuration(w.duration ?? "0s", "maintenanceWindow.windows.duration"),
    })),
  };
}

/**
 * The next time a window opens, or undefined while `now` is inside one. A
 * schedule without any window restricts nothing (validation refuses
 * enabling one).
 */
export function nextOpening(schedule: MaintenanceSchedule, now: Date): Date | undefined {
  const at = now.getTime();
  const today = wallClock(at, schedule.timeZone);
  let next: number | undefined;
  for (let offset = -DAYS_AROUND; offset <= DAYS_AROUND; offset++) {
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
    const weekday = ((day.getUTCDay() + 6) % 7) + 1;
    for (const window of schedule.windows) {
      if (!window.weekdays.includes(weekday)) continue;
      const [hour, minute] = window.start.split(":").map(Number) as [number, number];
      const opens = instantOf(schedule.timeZone, day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), hour, minute);
      if (opens <= at && at < opens + window.durationMs) return undefined;
      if (opens > at && (next === undefined || opens < next)) next = opens;
    }
  }
  return next === undefined ? undefined : new Date(next);
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** The local date and time of an instant in the zone. */
function wallClock(instant: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** How far the zone's local time is ahead of UTC at an instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const local = wallClock(instant, timeZone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  return asUtc - (instant - (((instant % 1000) + 1000) % 1000));
}

/** The instant of a local date and time in the zone (see the header for skipped and repeated times). */
function instantOf(timeZone: string, year: number, month: number, day: number, hour: number, minute: number): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const valid = [wall - before, wall - after].filter((instant) => offsetAt(instant, timeZone) === wall - instant);
  return valid.length > 0 ? Math.min(...valid) : wall - before;
}
