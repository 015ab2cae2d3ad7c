// The presence locks of job pools (§12.6): the reconciler unlocks the jobs of
// a pool nobody holds, keeps those of a pool still held, and unlocks them once
// the pool has stopped and let its lock go.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PoolPresence, unlockJobsOfGonePools } from "../shared/platform/jobs/pool-presence.store.ts";
import { createDb, type Db } from "../shared/platform/db.ts";
import { adminQuery, createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { eventually } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";

describe("job pool presence", () => {
  let database: TestDatabase;
  let db: Db;
  let presence: PoolPresence;

  before(async () => {
    database = await createTestDatabase();
    db = await createDb(database.url, quietLogger());
    presence = await PoolPresence.open(database.url, quietLogger());
  });
  after(async () => {
    await presence.close();
    await db.end();
    await database.drop();
  });

  /** Adds a job locked by the pool a minute ago (past the reconciler's grace); answers its id. */
  const jobLockedBy = async (poolId: string): Promise<string> => {
    const { rows } = await adminQuery(`select id from graphile_worker.add_job('maintenance.cleanupJobs', '{}'::json)`, database.url);
    const id = String(rows[0]!.id);
    await adminQuery(`update graphile_worker._private_jobs set locked_by = '${poolId}', locked_at = now() - interval '1 minute' where id = ${id}`, database.url);
    return id;
  };
  const lockedBy = async (jobId: string) => {
    const { rows } = await adminQuery(`select locked_by from graphile_worker._private_jobs where id = ${jobId}`, database.url);
    return rows[0]!.locked_by as string | null;
  };
  /** Whether a session other than the asking one holds an advisory lock (the presence connection's). */
  const presenceLocks = async () => {
    const { rows } = await adminQuery(`select count(*)::int as n from pg_locks l join pg_stat_activity a using (pid) where l.locktype = 'advisory' and a.application_name = 'svc job pool' and a.datname = current_database()`, database.url);
    return rows[0]!.n as number;
  };

  it("unlocks the jobs of a pool nobody holds", async () => {
    const job = await jobLockedBy("pool-gone");
    assert.deepEqual(await unlockJobsOfGonePools(db), ["pool-gone"]);
    assert.equal(await lockedBy(job), null);
  });

  it("keeps the jobs of a held pool locked, and unlocks them once the pool lets its lock go", async () => {
    const job = await jobLockedBy("pool-running");
    presence.hold("pool-running");
    await eventually(async () => (await presenceLocks()) === 1);
    assert.deepEqual(await unlockJobsOfGonePools(db), []);
    assert.equal(await lockedBy(job), "pool-running");

    presence.release("pool-running");
    await eventually(async () => (await presenceLocks()) === 0);
    assert.deepEqual(await unlockJobsOfGonePools(db), ["pool-running"]);
    assert.equal(await lockedBy(job), null);
  });
});
