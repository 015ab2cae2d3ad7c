// Claiming a PENDING task run against the process's settings cache (contract
// §12.4, §12.7, §12.8): the cached gate decides first, and a closed one
// neither starts the run nor lets the caller open the target's session; a
// maintenance window changed in the store before the cache heard of it is
// caught by the claim's statement, and the claim is made again with the
// stored settings; a pause switched on while a claim is being made either
// comes before it (the claim waits for the switch's commit) or after it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { createSettingCache, type SettingCache } from "../shared/governance/settings/setting-cache.ts";
import { claimTaskRun } from "../shared/change/task-run/claim-task-run.ts";
import { LockConnections, RunLocks } from "../shared/change/task-run/run-locks.store.ts";
import type { TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { eventually } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { startPendingRuns, type PendingRuns } from "./helpers/pending-runs.ts";

const HOUR_MS = 3_600_000;
const EVERY_DAY = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"];

describe("claiming a task run", () => {
  let pending: PendingRuns;
  let app: TestApp;
  let runIds: number[] = [];
  let connections: LockConnections;
  let settings: SettingCache;

  before(async () => {
    pending = await startPendingRuns("claims", 3);
    ({ app, runIds } = pending);
    connections = new LockConnections(app.database.url);
    settings = createSettingCache(app.database.url, app.db, quietLogger());
  });
  after(async () => {
    await settings?.close();
    await connections?.close();
    await pending?.stop();
  });

  const setting = (name: string, value: unknown) => pending.ok("PATCH", `/v1/settings/${name}?updateMask=*`, { value });
  const stateOf = async (runId: number) => (await adminQuery(`select state from task_run where id = ${runId}`, app.database.url)).rows[0]!.state as string;
  /** Claims the run with its locks held, as the worker does; answers the claim and how often the target's session was asked to open. */
  const claim = async (runId: number) => {
    const locks = await RunLocks.open(connections, () => undefined);
    try {
      const locked = await locks.tryLockPendingRun(runId);
      assert.ok(locked, `run ${runId} locked`);
      let opened = 0;
      const answer = await claimTaskRun(app.db, settings, runId, locked.targetLocked, () => opened++);
      return { answer, opened };
    } finally {
      await locks.close(false);
    }
  };

  it("with the emergency pause on, neither starts the run nor opens its target's session; with it off, starts the run", async () => {
    await setting("EMERGENCY_PAUSE", { emergencyPause: { enabled: true, reason: "incident 7" } });
    await eventually(async () => (await settings.get("EMERGENCY_PAUSE"))?.enabled === true);
    const held = await claim(runIds[0]!);
    assert.deepEqual(held, { answer: { kind: "waiting", reason: "emergency pause: incident 7" }, opened: 0 });
    assert.equal(await stateOf(runIds[0]!), "PENDING");

    await setting("EMERGENCY_PAUSE", { emergencyPause: { enabled: false } });
    await eventually(async () => (await settings.get("EMERGENCY_PAUSE"))?.enabled !== true);
    assert.deepEqual(await claim(runIds[0]!), { answer: { kind: "started" }, opened: 1 });
    assert.equal(await stateOf(runIds[0]!), "RUNNING");
  });

  it("catches a maintenance window the cache has not heard of, and holds the run until the stored window opens", async () => {
    assert.equal((await settings.get("MAINTENANCE_WINDOW"))?.enabled, undefined, "the cache knows no window");
    // The change is written without its announcement, as one the cache has not received yet.
    await adminQuery("alter table setting disable trigger setting_changed", app.database.url);
    const opening = new Date(Math.floor((Date.now() + 3 * HOUR_MS) / 60_000) * 60_000);
    try {
      await setting("MAINTENANCE_WINDOW", {
        maintenanceWindow: { enabled: true, timezone: "UTC", windows: [{ weekdays: EVERY_DAY, start: opening.toISOString().slice(11, 16), duration: "1h" }] },
      });
    } finally {
      await adminQuery("alter table setting enable trigger setting_changed", app.database.url);
    }
    assert.equal((await settings.get("MAINTENANCE_WINDOW"))?.enabled, undefined, "the cache still knows no window");

    const { answer } = await claim(runIds[1]!);
    assert.deepEqual(answer, { kind: "waiting", reason: `maintenance window opens at ${opening.toISOString().replace(".000Z", "Z")}` });
    assert.equal(await stateOf(runIds[1]!), "PENDING");
    const { rows } = await adminQuery(`select run_at from graphile_worker._private_jobs where key = 'taskRun:${runIds[1]}'`, app.database.url);
    assert.equal((rows[0]!.run_at as Date).getTime(), opening.getTime(), "its job waits for the opening");

    await setting("MAINTENANCE_WINDOW", { maintenanceWindow: { enabled: false } });
    await eventually(async () => (await settings.get("MAINTENANCE_WINDOW"))?.enabled !== true);
  });

  it("waits for a pause switch being committed, and then holds the run", async () => {
    // The pause's stored value when on, taken from the API; then off again.
    await setting("EMERGENCY_PAUSE", { emergencyPause: { enabled: true, reason: "switch race" } });
    const on = (await adminQuery("select value from setting where name = 'EMERGENCY_PAUSE'", app.database.url)).rows[0]!.value;
    await setting("EMERGENCY_PAUSE", { emergencyPause: { enabled: false } });
    await eventually(async () => (await settings.get("EMERGENCY_PAUSE"))?.enabled !== true);

    // The switch's transaction has written the pause but not committed when the claim is made.
    const switching = new pg.Client({ connectionString: app.database.url });
    await switching.connect();
    try {
      await switching.query("begin");
      await switching.query("update setting set value = $1 where name = 'EMERGENCY_PAUSE'", [on]);
      const claimed = claim(runIds[2]!);
      const settledEarly = await Promise.race([claimed.then(() => true), sleep(300).then(() => false)]);
      assert.equal(settledEarly, false, "the claim waits for the switch");
      await switching.query("commit");
      const { answer } = await claimed;
      assert.deepEqual(answer, { kind: "waiting", reason: "emergency pause: switch race" });
      assert.equal(await stateOf(runIds[2]!), "PENDING");
    } finally {
      await switching.end();
    }
  });
});
