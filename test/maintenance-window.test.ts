// MAINTENANCE_WINDOW (contract §7.9, §12.8): the window arithmetic on its
// own (weekdays, crossing midnight, time zones, daylight-saving shifts), then
// through the API: a task run waits for the window with the reason, and
// starts once the window is moved around now.
import { create } from "@bufbuild/protobuf";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { MaintenanceWindowSettingSchema, MaintenanceWindowSetting_Weekday as Day } from "../shared/gen/svc/v1/setting_operations_pb.js";
import { maintenanceSchedule, nextOpening, type MaintenanceSchedule } from "../shared/change/task-run/maintenance-window.ts";
import { eventually } from "./helpers/instances.ts";
import { RolloutHarness, type PgTarget } from "./helpers/rollout-harness.ts";

const HOUR = 3_600_000;
const EVERY_DAY = [Day.MONDAY, Day.TUESDAY, Day.WEDNESDAY, Day.THURSDAY, Day.FRIDAY, Day.SATURDAY, Day.SUNDAY];

function schedule(timeZone: string, ...windows: [weekdays: Day[], start: string, hours: number][]): MaintenanceSchedule {
  return { timeZone, windows: windows.map(([weekdays, start, hours]) => ({ weekdays, start, durationMs: hours * HOUR })) };
}

/** The next opening as an ISO string, or "inside". */
function at(s: MaintenanceSchedule, now: string): string {
  return nextOpening(s, new Date(now))?.toISOString() ?? "inside";
}

describe("maintenance window arithmetic", () => {
  it("is inside from the opening up to (not including) the closing", () => {
    const s = schedule("UTC", [[Day.MONDAY], "09:00", 2]); // 2024-01-01 is a Monday
    assert.equal(at(s, "2024-01-01T08:59:59Z"), "2024-01-01T09:00:00.000Z");
    assert.equal(at(s, "2024-01-01T09:00:00Z"), "inside");
    assert.equal(at(s, "2024-01-01T10:59:59Z"), "inside");
    assert.equal(at(s, "2024-01-01T11:00:00Z"), "2024-01-08T09:00:00.000Z");
  });

  it("keeps a window that crosses midnight open into the next day", () => {
    const s = schedule("UTC", [[Day.MONDAY], "22:00", 4]);
    assert.equal(at(s, "2024-01-01T23:30:00Z"), "inside");
    assert.equal(at(s, "2024-01-02T01:59:00Z"), "inside"); // Tuesday, still Monday's window
    assert.equal(at(s, "2024-01-02T02:00:00Z"), "2024-01-08T22:00:00.000Z");
    // A Sunday window crossing into Monday, seen from Monday morning.
    assert.equal(at(schedule("UTC", [[Day.SUNDAY], "23:00", 3]), "2024-01-01T01:00:00Z"), "inside");
  });

  it("opens only on its weekdays, and picks the nearest of several windows", () => {
    const weekend = schedule("UTC", [[Day.SATURDAY, Day.SUNDAY], "10:00", 2]);
    assert.equal(at(weekend, "2024-01-05T12:00:00Z"), "2024-01-06T10:00:00.000Z"); // Friday → Saturday
    assert.equal(at(weekend, "2024-01-06T13:00:00Z"), "2024-01-07T10:00:00.000Z"); // Saturday after → Sunday
    assert.equal(at(weekend, "2024-01-07T13:00:00Z"), "2024-01-13T10:00:00.000Z"); // Sunday after → next Saturday
    const two = schedule("UTC", [[Day.WEDNESDAY], "18:00", 1], [[Day.TUESDAY], "06:00", 1]);
    assert.equal(at(two, "2024-01-01T12:00:00Z"), "2024-01-02T06:00:00.000Z");
    assert.equal(at(two, "2024-01-02T07:00:00Z"), "2024-01-03T18:00:00.000Z");
    assert.equal(at(two, "2024-01-03T18:30:00Z"), "inside");
  });

  it("reads start times and weekdays in the setting's time zone", () => {
    const tokyo = schedule("Asia/Tokyo", [[Day.MONDAY], "09:00", 1]); // UTC+9, no DST
    assert.equal(at(tokyo, "2024-01-01T00:30:00Z"), "inside"); // Monday 09:30 in Tokyo
    assert.equal(at(tokyo, "2024-01-01T01:00:00Z"), "2024-01-08T00:00:00.000Z");
    // Sunday 20:00 in Los Angeles is Monday 04:00 UTC: the local weekday counts.
    const la = schedule("America/Los_Angeles", [[Day.SUNDAY], "20:00", 2]);
    assert.equal(at(la, "2024-01-08T05:00:00Z"), "inside");
    assert.equal(at(la, "2024-01-08T06:00:00Z"), "2024-01-15T04:00:00.000Z");
    // Kathmandu is UTC+5:45.
    assert.equal(at(schedule("Asia/Kathmandu", [EVERY_DAY, "00:00", 1]), "2024-01-01T12:00:00Z"), "2024-01-01T18:15:00.000Z");
  });

  it("follows daylight-saving shifts: the same local time, a skipped time shifted forward, a repeated time at its first occurrence", () => {
    const daily = schedule("Europe/Berlin", [EVERY_DAY, "09:00", 1]);
    assert.equal(at(daily, "2024-03-30T09:00:00Z"), "2024-03-31T07:00:00.000Z"); // 09:00 CET → 09:00 CEST
    assert.equal(at(daily, "2024-10-26T08:00:00Z"), "2024-10-27T08:00:00.000Z"); // 09:00 CEST → 09:00 CET
    // 2024-03-31 02:30 does not exist in Berlin (02:00 → 03:00): it opens at 03:30 CEST.
    const skipped = schedule("Europe/Berlin", [[Day.SUNDAY], "02:30", 1]);
    assert.equal(at(skipped, "2024-03-31T01:00:00Z"), "2024-03-31T01:30:00.000Z");
    // 2024-10-27 02:30 happens twice (CEST, then CET): the window opens at the first.
    const repeated = schedule("Europe/Berlin", [[Day.SUNDAY], "02:30", 0.5]);
    assert.equal(at(repeated, "2024-10-27T00:00:00Z"), "2024-10-27T00:30:00.000Z");
    assert.equal(at(repeated, "2024-10-27T00:45:00Z"), "inside");
    assert.equal(at(repeated, "2024-10-27T01:15:00Z"), "2024-11-03T01:30:00.000Z");
    // A duration is elapsed time: 3 h from 01:00 CET on the spring-forward night ends at 05:00 CEST.
    const across = schedule("Europe/Berlin", [[Day.SUNDAY], "01:00", 3]);
    assert.equal(at(across, "2024-03-31T02:59:00Z"), "inside");
    assert.equal(at(across, "2024-03-31T03:00:00Z"), "2024-04-06T23:00:00.000Z"); // next Sunday 01:00 CEST
    // New York springs forward at 02:00 on 2024-03-10.
    assert.equal(at(schedule("America/New_York", [[Day.SUNDAY], "02:15", 1]), "2024-03-10T06:00:00Z"), "2024-03-10T07:15:00.000Z");
  });

  it("takes its schedule from the setting: none while disabled, durations and the default zone as stored", () => {
    const window = { weekdays: [Day.MONDAY], start: "22:00", duration: "7200s" };
    assert.equal(maintenanceSchedule(create(MaintenanceWindowSettingSchema, { enabled: false, windows: [window] })), undefined);
    const s = maintenanceSchedule(create(MaintenanceWindowSettingSchema, { enabled: true, windows: [window] }));
    assert.deepEqual(s, { timeZone: "UTC", windows: [{ weekdays: [Day.MONDAY], start: "22:00", durationMs: 2 * HOUR }] });
    assert.equal(at(s!, "2024-01-01T23:59:00Z"), "inside");
    assert.equal(at(schedule("UTC"), "2024-01-01T00:00:00Z"), "inside"); // no window restricts nothing
  });
});

describe("maintenance window through the API", () => {
  const harness = new RolloutHarness("window");
  let target: PgTarget;
  const EVERY_DAY_NAMES = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"];
  /** A daily UTC window of one hour starting at the minute of `start`. */
  const windowAt = (start: Date) => ({
    maintenanceWindow: { enabled: true, timezone: "UTC", windows: [{ weekdays: EVERY_DAY_NAMES, start: start.toISOString().slice(11, 16), duration: "1h" }] },
  });
  const minuteOf = (ms: number) => new Date(ms - (ms % 60_000));

  before(async () => {
    [target] = (await harness.start(1)) as [PgTarget];
  });
  after(() => harness.stop());

  it("holds a task run until the window opens, saying when, and starts it once the window is moved around now", async () => {
    const planId = await harness.checkedPlan(target, "create table in_window (id int);");
    const opening = minuteOf(Date.now() + 3 * HOUR);
    await harness.setting("MAINTENANCE_WINDOW", windowAt(opening));
    const task = (await harness.rollout(planId)).tasks[0];
    const expected = `maintenance window opens at ${opening.toISOString().replace(".000Z", "Z")}`;
    await eventually(async () => (await harness.task(task)).waitingReason === expected);
    const [run] = await harness.runs(task);
    assert.equal(run!.state, "PENDING");
    // The worker scheduled the run's job for the opening.
    await eventually(async () => (await harness.jobOf(run!))?.runAt.getTime() === opening.getTime());

    // The emergency pause wins over the window.
    await harness.setting("EMERGENCY_PAUSE", { emergencyPause: { enabled: true, reason: "freeze" } });
    await eventually(async () => (await harness.task(task)).waitingReason === "emergency pause: freeze");
    await harness.setting("EMERGENCY_PAUSE", { emergencyPause: { enabled: false } });
    await eventually(async () => (await harness.task(task)).waitingReason === expected);
    await eventually(async () => (await harness.jobOf(run!))?.runAt.getTime() === opening.getTime());

    await harness.setting("MAINTENANCE_WINDOW", windowAt(minuteOf(Date.now() - 60_000)));
    assert.ok(await harness.dispatched(run!), "moving the window dispatches the pending run at once");
    const done = await harness.runIn(task);
    assert.equal(done.name, run!.name);
    assert.equal(done.state, "DONE", JSON.stringify(done));
    assert.equal(((await target.query("select to_regclass('in_window') is not null as found")) as { rows: { found: boolean }[] }).rows[0]!.found, true);
  });
});
