// The advisory locks of a task run's execution on a leased lock connection
// (contract §12.4, §12.6): a run's lock and its target database's are taken
// together; a run that did not end lets both go when its connection is given
// back; an ended run's lock is left to the connection's next lock statement,
// which releases it before it takes the next run's.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "slonik";
import { TARGET_DATABASE_LOCK_CLASS, TASK_RUN_LOCK_CLASS } from "../shared/platform/locks.ts";
import { LockConnections, RunLocks } from "../shared/change/task-run/run-locks.store.ts";
import type { TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { startPendingRuns, type PendingRuns } from "./helpers/pending-runs.ts";

describe("task run locks", () => {
  let pending: PendingRuns;
  let app: TestApp;
  let runIds: number[] = [];
  let connections: LockConnections;

  before(async () => {
    pending = await startPendingRuns("locks", 3);
    ({ app, runIds } = pending);
    connections = new LockConnections(app.database.url);
  });
  after(async () => {
    await connections?.close();
    await pending?.stop();
  });

  /** The advisory locks the lock connections hold: "run <key>" and "target" entries. */
  const heldLocks = async () => {
    const { rows } = await adminQuery(
      `select l.classid::int as class, l.objid::bigint as key from pg_locks l join pg_stat_activity a using (pid)
       where l.locktype = 'advisory' and l.granted and a.application_name = 'svc task run' and a.datname = current_database()`,
      app.database.url,
    );
    return rows
      .map((r) => (r.class === TASK_RUN_LOCK_CLASS ? `run ${r.key}` : r.class === TARGET_DATABASE_LOCK_CLASS ? "target" : `other ${r.class}`))
      .sort();
  };
  const lockRun = async (runId: number) => {
    const locks = await RunLocks.open(connections, () => undefined);
    const locked = await locks.tryLockPendingRun(runId);
    assert.ok(locked?.targetLocked, `run ${runId} and its target locked`);
    return { locks, run: locked.run };
  };
  const endRun = (runId: number) => app.db.query(sql.unsafe`update task_run set state = 'DONE', end_time = now() where id = ${runId}`);

  it("releases both locks at once when the run did not end", async () => {
    const { locks } = await lockRun(runIds[0]!);
    assert.deepEqual(await heldLocks(), [`run ${runIds[0]}`, "target"]);
    await locks.close(false);
    assert.deepEqual(await heldLocks(), []);
  });

  it("leaves an ended run's lock to the connection's next lock statement, which releases it before taking the next run's", async () => {
    const first = await lockRun(runIds[1]!);
    await first.locks.unlockTarget(first.run.instanceId, first.run.databaseName);
    await endRun(runIds[1]!);
    await first.locks.close(true);
    assert.deepEqual(await heldLocks(), [`run ${runIds[1]}`], "the ended run's lock stays on the idle connection");

    const next = await lockRun(runIds[2]!); // the same connection, leased again
    assert.deepEqual(await heldLocks(), [`run ${runIds[2]}`, "target"]);
    await next.locks.close(false);
    assert.deepEqual(await heldLocks(), []);
  });
});
