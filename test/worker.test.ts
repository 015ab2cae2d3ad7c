// Jobs are enqueued in the caller's transaction and run by the worker; the
// leader runners schedule the job clean-up.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "slonik";
import { z } from "zod";
import { addJob } from "../shared/jobs/jobs.store.ts";
import { createDb, withTransaction, type Db } from "../shared/platform/db.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { quietLogger } from "./helpers/logger.ts";

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("worker", () => {
  let database: TestDatabase;
  let db: Db;
  let worker: Worker;
  before(async () => {
    database = await createTestDatabase();
    db = await createDb(database.url, quietLogger());
    worker = await startWorker({ url: database.url, db, logger: quietLogger() });
  });
  after(async () => {
    await worker.stop();
    await db.end();
    await database.drop();
  });

  const jobCount = (identifier: string) =>
    db.oneFirst(sql.type(z.object({ n: z.coerce.number() }))`
      select count(*) as n from graphile_worker.jobs where task_identifier = ${identifier}`);

  it("becomes the leader when it is alone", async () => {
    await eventually(async () => worker.leadership.isLeader());
  });

  it("runs the clean-up job: old permanently failed jobs go, recent ones stay", async () => {
    const failedJob = async (daysAgo: number) => {
      const id = await db.oneFirst(sql.type(z.object({ id: z.string() }))`
        select (graphile_worker.add_job('unknown.task', '{}'::json, max_attempts => 1)).id::text as id`);
      await db.query(sql.unsafe`update graphile_worker._private_jobs
        set attempts = 1, updated_at = now() - make_interval(days => ${daysAgo}) where id = ${id}::bigint`);
    };
    await failedJob(40);
    await failedJob(1);
    await withTransaction(db, (tx) => addJob(tx, "maintenance.cleanupJobs", { permafailedOlderThanDays: 30 }));
    await eventually(async () => (await jobCount("unknown.task")) === 1);
    await eventually(async () => (await jobCount("maintenance.cleanupJobs")) === 0);
  });

  it("never runs a job whose transaction rolled back", async () => {
    await assert.rejects(
      withTransaction(db, async (tx) => {
        await addJob(tx, "maintenance.cleanupJobs", { permafailedOlderThanDays: 1 }, { jobKey: "rolled-back" });
        throw new Error("the change failed");
      }),
      /the change failed/,
    );
    const keyed = await db.oneFirst(sql.type(z.object({ n: z.coerce.number() }))`
      select count(*) as n from graphile_worker.jobs where key = 'rolled-back'`);
    assert.equal(keyed, 0);
  });

  it("refuses a payload that does not match the catalogue", async () => {
    await db.query(sql.unsafe`select graphile_worker.add_job('maintenance.cleanupJobs', '{"permafailedOlderThanDays": "soon"}'::json, max_attempts => 1)`);
    await eventually(async () => {
      const failed = await db.maybeOne(sql.type(z.object({ last_error: z.string().nullable() }))`
        select last_error from graphile_worker.jobs
        where task_identifier = 'maintenance.cleanupJobs' and attempts >= max_attempts`);
      return Boolean(failed?.last_error?.includes("permafailedOlderThanDays"));
    });
  });
});
