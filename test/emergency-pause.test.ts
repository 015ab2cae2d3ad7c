// EMERGENCY_PAUSE (contract §7.10, §12.7) with a worker executing task runs
// on real PostgreSQL targets: switched on during a transactional run, the run
// is cancelled on the target and rolled back, ends CANCELED "suspended by
// emergency pause: <reason>", and its task waits PENDING with the reason
// while nothing starts and runs are refused; switched off, the task runs by
// itself to DONE. A non-transactional script suspended mid-way finishes its
// running statement, and later continues from the next one without
// re-applying any. Both switches are audited as bb.settings.set.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { adminQuery } from "./helpers/db.ts";
import { eventually } from "./helpers/instances.ts";
import { HOLD_TABLE, RolloutHarness, WAIT_WHILE_HELD, type Json, type PgTarget } from "./helpers/rollout-harness.ts";

const REASON = "incident 42";

describe("emergency pause", () => {
  const harness = new RolloutHarness("pause");
  let transactional: PgTarget;
  let stepwise: PgTarget;

  const rows = async (target: PgTarget, sql: string) => ((await target.query(sql)) as { rows: Json[] }).rows;
  const hold = (target: PgTarget, held: boolean) => target.query(`update hold set held = ${held}`);
  const pause = (enabled: boolean) => harness.setting("EMERGENCY_PAUSE", { emergencyPause: enabled ? { enabled, reason: REASON } : { enabled } });
  /** The run's statement is executing on the target. */
  const waiting = async (target: PgTarget) =>
    (await rows(target, `select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and query like 'do $$%'`))[0]!.n === 1;

  before(async () => {
    [transactional, stepwise] = (await harness.start(2, [HOLD_TABLE])) as [PgTarget, PgTarget];
  });
  after(() => harness.stop());

  it("suspends a transactional run on the target, rolls it back and holds the task until the pause ends", async () => {
    const planId = await harness.checkedPlan(transactional, `create table paused_t (id int primary key);\n${WAIT_WHILE_HELD};`);
    await hold(transactional, true);
    const rollout = await harness.rollout(planId);
    const task = rollout.tasks[0];
    const first = await harness.runIn(task, "RUNNING");
    await eventually(() => waiting(transactional));

    const switched = performance.now();
    await pause(true);
    await eventually(async () => (await harness.ok("GET", `/v1/${first.name}`)).state === "CANCELED", 10_000);
    const ended = await harness.ok("GET", `/v1/${first.name}`);
    assert.ok(performance.now() - switched < 5_000, "the suspension reached the target within seconds");
    assert.equal(ended.detail, `suspended by emergency pause: ${REASON}`, JSON.stringify(ended));
    assert.equal(await waiting(transactional), false, "the statement no longer runs on the target");
    assert.equal((await rows(transactional, "select to_regclass('paused_t') is null as absent"))[0]!.absent, true, "nothing was applied");

    // The task is PENDING again with a new run, which does not start while the pause is on.
    const pending = await harness.task(task);
    assert.equal(pending.state, "PENDING");
    assert.equal(pending.waitingReason, `emergency pause: ${REASON}`);
    const [next] = await harness.runs(task);
    assert.notEqual(next!.name, first.name);
    assert.equal(next!.state, "PENDING");
    await eventually(async () => (await harness.jobOf(next!)) === undefined); // its job ran and left it waiting
    assert.equal((await harness.runs(task))[0]!.state, "PENDING");
    const refused = await harness.call("POST", `/v1/${rollout.name}/tasks:batchRun`, { tasks: [task.name] });
    assert.equal(refused.body.code, "failed_precondition");
    assert.match(refused.body.message, /emergency pause: incident 42/);

    await hold(transactional, false);
    await pause(false);
    assert.ok(await harness.dispatched(next!), "switching the pause off dispatches the pending run");
    const resumed = await harness.runIn(task);
    assert.equal(resumed.name, next!.name);
    assert.equal(resumed.state, "DONE", JSON.stringify(resumed));
    assert.equal((await harness.logOf(resumed)).length, 2, "the rolled-back run is applied again from its first statement");
    assert.equal((await rows(transactional, "select to_regclass('paused_t') is not null as found"))[0]!.found, true);
    assert.equal((await harness.task(task)).state, "DONE");

    const audit = (await adminQuery(`select action, detail from audit_log where resource = 'settings/EMERGENCY_PAUSE' order by id`, harness.app.database.url)).rows;
    assert.deepEqual(
      audit.map((r) => [r.action, r.detail.changes.find((c: Json) => c.field === "emergencyPause.enabled")?.new]),
      [["bb.settings.set", true], ["bb.settings.set", false]],
    );
  });

  it("lets a non-transactional statement finish, then continues the script from the next statement once the pause ends", async () => {
    const script = [
      "create table nt (id int);",
      "create index concurrently nt_id on nt (id);",
      `${WAIT_WHILE_HELD};`,
      "insert into nt values (1);",
    ].join("\n");
    const planId = await harness.checkedPlan(stepwise, script);
    await hold(stepwise, true);
    const task = (await harness.rollout(planId)).tasks[0];
    const first = await harness.runIn(task, "RUNNING");
    await eventually(() => waiting(stepwise));

    await pause(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal((await harness.ok("GET", `/v1/${first.name}`)).state, "RUNNING", "the running statement is not interrupted");
    await hold(stepwise, false);
    await eventually(async () => (await harness.ok("GET", `/v1/${first.name}`)).state === "CANCELED");
    const ended = await harness.ok("GET", `/v1/${first.name}`);
    assert.equal(ended.detail, `suspended by emergency pause: ${REASON}`);
    assert.deepEqual((await harness.logOf(first)).map((e) => e.error ?? ""), ["", "", ""], "statements 1–3 were applied");
    assert.deepEqual(await rows(stepwise, "select count(*)::int as n, to_regclass('nt_id') is not null as indexed from nt"), [{ n: 0, indexed: true }]);
    const pending = await harness.task(task);
    assert.deepEqual([pending.state, pending.waitingReason], ["PENDING", `emergency pause: ${REASON}`]);

    await pause(false);
    assert.ok(await harness.dispatched((await harness.runs(task))[0]!), "switching the pause off dispatches the pending run");
    const continued = await harness.runIn(task);
    assert.notEqual(continued.name, first.name);
    assert.equal(continued.state, "DONE", JSON.stringify(continued));
    assert.deepEqual((await harness.logOf(continued)).map((e) => e.statement), ["insert into nt values (1)"]);
    assert.deepEqual(await rows(stepwise, "select count(*)::int as n from nt"), [{ n: 1 }]);
  });
});
