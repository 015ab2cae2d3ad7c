// The advisory locks of a task run's execution on a leased lock connection
// (contract §12.4, §12.6): a run's lock and its target database's are taken
// together; a run that did not end lets both go when its connection is given
// back; an ended run's lock is left to the connection's next lock statement,
// which releases it before it takes the next run's.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "slonik";
import { createDb } from "../shared/platform/db.ts";
import { TARGET_DATABASE_LOCK_CLASS, TASK_RUN_LOCK_CLASS } from "../shared/platform/locks.ts";
import { createMetrics } from "../shared/platform/metrics.ts";
import { createRollout } from "../shared/rollout/create-rollout.ts";
import { rolloutName } from "../shared/rollout/rollout-names.ts";
import { LockConnections, RunLocks } from "../shared/task-run/run-locks.store.ts";
import { startWorker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { createInstanceOk, createPgTarget, eventually, pgAdminSource, testSecrets } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;
type PgTarget = Awaited<ReturnType<typeof createPgTarget>>;

describe("task run locks", () => {
  let app: TestApp;
  let token = "";
  let connections: LockConnections;
  const targets: PgTarget[] = [];
  let runIds: number[] = [];

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    const rest = restClient(app.baseUrl);
    token = await signInFirstAdmin(rest);
    const ok = async (method: string, path: string, body?: unknown) => {
      const reply = await rest<Json>(method, path, { token, body });
      assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
      return reply.body;
    };
    await ok("POST", "/v1/projects?projectId=locks", { requirePlanCheckSuccess: false });
    for (let i = 0; i < 3; i++) targets.push(await createPgTarget());
    // A worker syncs the instance, and stops before the rollout: its runs stay PENDING.
    const workerDb = await createDb(app.database.url, quietLogger());
    const worker = await startWorker({ url: app.database.url, db: workerDb, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 1 }) });
    await createInstanceOk(rest, token, "locks-pg", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    const resources = targets.map((t) => `instances/locks-pg/databases/${t.name}`);
    for (const resource of resources) await eventually(async () => (await rest<Json>("GET", `/v1/${resource}`, { token })).body.syncState === "OK");
    await worker.stop();
    await workerDb.end();
    await ok("POST", "/v1/databases:transfer", { databases: resources, targetProject: "projects/locks" });
    const plan = await ok("POST", "/v1/projects/locks/plans", { title: "locks", specs: [{ changeDatabaseConfig: { targets: resources, statement: "select 1" } }] });
    const planId = String(plan.name).split("/").at(-1)!;
    const created = await app.db.transaction((tx) => createRollout(tx, { projectId: "locks", planId, issueId: undefined, creator: "users/admin" }));
    const rollout = await ok("GET", `/v1/${rolloutName(created)}`);
    runIds = rollout.tasks.map((task: Json) => Number(String(task.latestTaskRun).split("/").at(-1)));
    connections = new LockConnections(app.database.url);
  });
  after(async () => {
    await connections?.close();
    await app?.close();
    for (const target of targets) await target.drop();
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
