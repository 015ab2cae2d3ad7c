// The job runner's supervisor (worker/runner-supervisor.ts) over real
// graphile-worker runners: a runner that stops without being asked is
// replaced, and the new one runs jobs; a start that fails is tried again
// later; stopping the supervisor stops its runner and starts no other, even
// while a restart is pending, and stops one whose start was under way.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Logger, run, type Runner } from "graphile-worker";
import pg from "pg";
import { superviseRunner } from "../worker/runner-supervisor.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { eventually } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";

const RESTART_MS = 50;
const quietGraphileLogger = new Logger(() => () => undefined);

describe("the job runner's supervisor", () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  const handled: number[] = [];

  before(async () => {
    database = await createTestDatabase({ empty: true });
    // The runners' pool, as the worker's: ended before the database is dropped (its connections are cut then).
    pool = new pg.Pool({ connectionString: database.url });
    pool.on("error", () => undefined);
  });
  after(async () => {
    await pool.end();
    await database.drop();
  });

  /** Starts runners of one task, recording each, failing while `failing` says so, after `ready` resolves. */
  const starter = (failing: () => boolean, ready: () => Promise<void> = async () => {}) => {
    const runners: Runner[] = [];
    const start = async () => {
      await ready();
      if (failing()) throw new Error("the store is away");
      const runner = await run({
        pgPool: pool,
        concurrency: 1,
        noHandleSignals: true,
        crontab: "",
        logger: quietGraphileLogger,
        taskList: { note: async (payload) => void handled.push((payload as { n: number }).n) },
      });
      runners.push(runner);
      return runner;
    };
    return { runners, start };
  };

  it("replaces a runner that stopped by itself, and the new one runs jobs", async () => {
    const { runners, start } = starter(() => false);
    const supervised = await superviseRunner(start, quietLogger(), RESTART_MS);
    try {
      await runners[0]!.stop(); // not through the supervisor: as graphile-worker stops it after a failed write
      await eventually(async () => runners.length === 2);
      await runners[1]!.addJob("note", { n: 1 });
      await eventually(async () => handled.includes(1));
    } finally {
      await supervised.stop();
    }
    await sleep(RESTART_MS * 4);
    assert.equal(runners.length, 2, "no runner started after the supervisor stopped");
  });

  it("tries a failed start again, and starts nothing once stopped while a restart is pending", async () => {
    let failures = 0;
    let failing = false;
    const { runners, start } = starter(() => {
      if (failing) failures++;
      return failing;
    });
    const supervised = await superviseRunner(start, quietLogger(), RESTART_MS);
    failing = true;
    await runners[0]!.stop();
    await eventually(async () => failures >= 2); // tried, failed, and tried again after a longer pause
    failing = false;
    await eventually(async () => runners.length === 2);
    await runners[1]!.stop();
    failing = true;
    await eventually(async () => failures >= 3);
    await supervised.stop(); // a restart is pending now
    const triedBefore = failures;
    failing = false;
    await sleep(RESTART_MS * 8);
    assert.deepEqual([runners.length, failures], [2, triedBefore], "nothing was started after the stop");
  });

  it("stops a runner whose start was under way when the supervisor stopped", async () => {
    let release = () => {};
    let starts = 0;
    const { runners, start } = starter(
      () => false,
      () => (++starts === 1 ? Promise.resolve() : new Promise<void>((resolve) => (release = resolve))),
    );
    const supervised = await superviseRunner(start, quietLogger(), RESTART_MS);
    await runners[0]!.stop();
    await eventually(async () => starts === 2); // the new runner's start waits
    const stopped = supervised.stop();
    release();
    await stopped;
    assert.equal(runners.length, 2);
    const ended = await Promise.race([runners[1]!.promise.then(() => true), sleep(2_000).then(() => false)]);
    assert.ok(ended, "the runner started during the stop was stopped");
  });
});
