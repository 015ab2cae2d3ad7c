// A restart of the metadata store in the middle of a rollout (issue 6): every
// connection of the server and the worker is cut while a task run executes,
// and the store refuses new ones for a moment, as a PostgreSQL restart does.
// Nothing is lost: the run ends with a clear reason (the worker stopped the
// script it could no longer account for, and the transactional run left
// nothing behind), no job stays locked, the API answers again, and a retry
// applies the change exactly once. An outage longer than a run's settlement
// retries also stops graphile-worker's runner (it cannot record the job's
// end); a new runner takes its place and runs later jobs.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { JOB_POOL_LOCK_CLASS } from "../shared/platform/locks.ts";
import { adminQuery } from "./helpers/db.ts";
import { eventually } from "./helpers/instances.ts";
import { HOLD_TABLE, RolloutHarness, WAIT_WHILE_HELD, type Json, type PgTarget } from "./helpers/rollout-harness.ts";

/** A run's settlement retries for about 7.5 s (execute-task-run.ts). */
const OUTLASTING_SETTLEMENT_MS = 12_000;

describe("a restart of the metadata store mid-rollout", () => {
  const harness = new RolloutHarness("restart");
  let target: PgTarget;

  before(async () => {
    [target] = (await harness.start(1, [HOLD_TABLE])) as [PgTarget];
  });
  after(() => harness.stop());

  /** Cuts every connection to the store's database and refuses new ones for `downMs`. */
  const restartStore = async (downMs: number) => {
    const name = new URL(harness.app.database.url).pathname.slice(1);
    await adminQuery(`alter database ${name} allow_connections false`);
    await adminQuery(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`);
    await sleep(downMs);
    await adminQuery(`alter database ${name} allow_connections true`);
  };

  const lockedJobs = async () => {
    const { rows } = await adminQuery("select count(*)::int as n from graphile_worker._private_jobs where locked_at is not null", harness.app.database.url);
    return rows[0]!.n as number;
  };
  /** The job pools' presence locks held in the store (one per running pool). */
  const RUNNERS_PER_WORKER = 2;
  const presenceLocks = async () => {
    const { rows } = await adminQuery(`select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = ${JOB_POOL_LOCK_CLASS} and objsubid = 2 and database = (select oid from pg_database where datname = current_database())`, harness.app.database.url);
    return rows[0]!.n as number;
  };

  /** A rollout whose run is RUNNING, held mid-transaction after creating `table` (and before filling it). */
  const heldRunCreating = async (table: string) => {
    const planId = await harness.checkedPlan(target, `create table ${table} (id int primary key);\n${WAIT_WHILE_HELD};\ninsert into ${table} values (1);`);
    await target.query("update hold set held = true");
    const rollout = await harness.rollout(planId);
    const task: Json = rollout.tasks[0];
    await harness.runIn(task, "RUNNING");
    return { rollout, task };
  };

  it("keeps the rollout's state, ends the run with its reason, leaves no job locked, and applies the retry once", async () => {
    const { rollout, task } = await heldRunCreating("kept");

    await restartStore(2_000);
    await target.query("update hold set held = false");

    // The API answers again, and the run is final with a reason.
    let run: Json = {};
    await eventually(async () => {
      const reply = await harness.call("GET", `/v1/${task.name}/taskRuns`).catch(() => undefined);
      run = reply?.status === 200 ? (reply.body.taskRuns?.[0] ?? {}) : {};
      return ["DONE", "FAILED", "CANCELED"].includes(run.state);
    }, 60_000);
    // The script was held mid-transaction when the connections were cut: it cannot have committed.
    assert.equal(run.state, "FAILED", JSON.stringify(run));
    // Settled by the worker when its store came back, or by the reconciler: either says why.
    assert.match(run.detail, /lost|could not complete/, JSON.stringify(run));
    await assert.rejects(target.query("select 1 from kept"), /does not exist/, "the transactional run left nothing behind");
    // No job of the worker is left locked by the connections that were cut.
    await eventually(async () => (await lockedJobs()) === 0, 60_000);

    await harness.ok("POST", `/v1/${rollout.name}/tasks:batchRun`, { tasks: [task.name] });
    run = await harness.runIn(task);
    assert.equal(run.state, "DONE", JSON.stringify(run));
    const { rows } = (await target.query("select count(*)::int as n from kept")) as { rows: Json[] };
    assert.equal(rows[0]!.n, 1, "applied exactly once");
    // The rollout follows its run's end after that end commits (progress.ts followUpRollout).
    await eventually(async () => (await harness.ok("GET", `/v1/${rollout.name}`)).state === "DONE");
  });

  it("starts a new job runner when the outage outlasts a run's settlement, and later runs execute", async () => {
    const { rollout, task } = await heldRunCreating("after_outage");

    // Longer than the settlement's retries: the job ends while the store is away.
    await restartStore(OUTLASTING_SETTLEMENT_MS);
    await target.query("update hold set held = false");
    await eventually(async () => {
      const reply = await harness.call("GET", `/v1/${task.name}/taskRuns`).catch(() => undefined);
      return reply?.status === 200 && reply.body.taskRuns?.[0]?.state === "FAILED";
    }, 60_000);
    // The job whose end the stopped runner could not record is unlocked once that runner's pool is gone.
    await eventually(async () => (await lockedJobs()) === 0, 60_000);

    await harness.ok("POST", `/v1/${rollout.name}/tasks:batchRun`, { tasks: [task.name] });
    const run = await harness.runIn(task, undefined, 60_000);
    assert.equal(run.state, "DONE", JSON.stringify(run));
    const { rows } = (await target.query("select count(*)::int as n from after_outage")) as { rows: Json[] };
    assert.equal(rows[0]!.n, 1, "applied exactly once");
    // Only the running pools hold their presence locks — the worker's two runners,
    // one for jobs and one for notification deliveries: the stopped one let its lock go.
    await eventually(async () => (await presenceLocks()) === RUNNERS_PER_WORKER);
  });
});
