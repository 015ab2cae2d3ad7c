// Task runs executed by the worker (contract §12.4, §12.5, §12.6) against
// real PostgreSQL and MariaDB targets, read back through the API: a DDL
// applied in one transaction; a failing statement (nothing applied on
// PostgreSQL, the statements before it on MySQL); CREATE INDEX CONCURRENTLY
// statement by statement; the project's statement timeout; a cancel that
// reaches the target within seconds; a suspension at a statement boundary and
// the run that continues after it; one change at a time per database; the
// rollout's parallel limit; a job enqueued again for a run that has begun or
// ended, which does nothing; a run whose job was lost, which the reconciler
// dispatches; and a run whose instance was deleted meanwhile.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import mysql from "mysql2/promise";
import { sql } from "slonik";
import { z } from "zod";
import { addJob } from "../shared/platform/jobs/jobs.store.ts";
import { createDb, type Db } from "../shared/platform/db.ts";
import { TASK_RUN_LOCK_CLASS } from "../shared/platform/locks.ts";
import { createMetrics, type Metrics } from "../shared/platform/metrics.ts";
import { createRollout } from "../shared/change/pipeline/rollout-creation.ts";
import { rolloutName } from "../shared/change/rollout/rollout-names.ts";
import { requestCancel, SUSPENSION_PREFIX } from "../shared/change/task-run/cancel.ts";
import { recordRunSession } from "../shared/change/task-run/store/run-execution.store.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { connectMysql, createInstanceOk, createPgTarget, eventually, MYSQL, mysqlAdminSource, pgAdminSource, testSecrets, uniqueName } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restClient } from "./helpers/rest.ts";
import { HOLD_TABLE, WAIT_WHILE_HELD } from "./helpers/rollout-harness.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;
type PgTarget = Awaited<ReturnType<typeof createPgTarget>>;

const FINAL = new Set(["DONE", "FAILED", "CANCELED"]);
const PG_DATABASES = ["ddl", "fails", "concurrently", "timeout", "cancel", "busy", "twice", "slot1", "slot2", "suspend", "stranded"] as const;

describe("task run execution", async () => {
  const mysqlAvailable = await connectMysql().then(async (c) => (c ? (await c.end(), true) : false));
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let token = "";
  let workerDb: Db;
  let worker: Worker;
  let metrics: Metrics;
  const pg = {} as Record<(typeof PG_DATABASES)[number], PgTarget & { resource: string }>;
  const myDatabase = uniqueName("exec_my");
  const myResource = `instances/exec-my/databases/${myDatabase}`;
  let my: mysql.Connection | undefined;

  const call = async (method: string, path: string, body?: unknown) => rest<Json>(method, path, { token, body });
  const ok = async (method: string, path: string, body?: unknown) => {
    const reply = await call(method, path, body);
    assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const pgRows = async (target: PgTarget, sql: string) => ((await target.query(sql)) as { rows: Json[] }).rows;

  /** A started rollout of one spec; its first task's run is PENDING, with its job. */
  const rollout = async (project: string, targets: string[], statement: string) => {
    const plan = await ok("POST", `/v1/projects/${project}/plans`, { title: "change", specs: [{ changeDatabaseConfig: { targets, statement } }] });
    const planId = String(plan.name).split("/").at(-1)!;
    const created = await app.db.transaction((tx) => createRollout(tx, { projectId: project, planId, issueId: undefined, creator: "users/admin" }));
    return ok("GET", `/v1/${rolloutName(created)}`);
  };
  const latestRun = async (task: Json) => (await ok("GET", `/v1/${task.name}/taskRuns`)).taskRuns[0] as Json;
  const runInState = async (task: Json, states: Set<string> | string, timeoutMs = 20_000) => {
    let run: Json = {};
    await eventually(async () => {
      run = await latestRun(task);
      return typeof states === "string" ? run.state === states : states.has(run.state);
    }, timeoutMs);
    return run;
  };
  const logOf = async (run: Json) => (await ok("GET", `/v1/${run.name}/log`)).entries as Json[];

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token = await signInFirstAdmin(rest);
    await ok("POST", "/v1/projects?projectId=exec", { requirePlanCheckSuccess: false });
    await ok("POST", "/v1/projects?projectId=exec-limits", { requirePlanCheckSuccess: false, statementTimeout: "1s", parallelTasksPerRollout: 1 });
    for (const name of PG_DATABASES) pg[name] = Object.assign(await createPgTarget(), { resource: "" });
    if (mysqlAvailable) {
      my = await mysql.createConnection({ ...MYSQL, multipleStatements: true });
      await my.query(`create database ${myDatabase}; create table ${myDatabase}.counter (n int)`);
    }
    metrics = createMetrics({ threadPoolSize: 4 });
    workerDb = await createDb(app.database.url, quietLogger(), { maxPoolSize: 10 });
    worker = await startWorker({ url: app.database.url, db: workerDb, logger: quietLogger(), secrets: testSecrets(), metrics, webhookAllowPrivate: false, externalUrl: undefined });
    await createInstanceOk(rest, token, "exec-pg", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    if (mysqlAvailable) await createInstanceOk(rest, token, "exec-my", { engine: "MYSQL", environment: "environments/test", dataSources: [mysqlAdminSource()] });
    for (const name of PG_DATABASES) pg[name].resource = `instances/exec-pg/databases/${pg[name].name}`;
    const resources = [...PG_DATABASES.map((n) => pg[n].resource), ...(mysqlAvailable ? [myResource] : [])];
    for (const resource of resources) await eventually(async () => (await call("GET", `/v1/${resource}`)).body.syncState === "OK");
    const limited = ["timeout", "slot1", "slot2"].map((n) => pg[n as keyof typeof pg].resource);
    await ok("POST", "/v1/databases:transfer", { databases: resources.filter((r) => !limited.includes(r)), targetProject: "projects/exec" });
    await ok("POST", "/v1/databases:transfer", { databases: limited, targetProject: "projects/exec-limits" });
  });
  after(async () => {
    await worker?.stop();
    await workerDb?.end();
    await app?.close();
    for (const target of Object.values(pg)) await target.drop();
    if (my) {
      await my.query(`drop database if exists ${myDatabase}`);
      await my.end();
    }
  });

  it("applies a DDL script in one transaction and logs each statement", async () => {
    const started = await rollout("exec", [pg.ddl.resource], "create table items (id int primary key);\ninsert into items values (1), (2), (3);");
    const run = await runInState(started.tasks[0], FINAL);
    assert.equal(run.state, "DONE", JSON.stringify(run));
    assert.equal(run.detail, "applied 2 statements in one transaction");
    assert.equal(run.affectedRows, "3");
    assert.ok(run.startTime && run.endTime);
    const log = await logOf(run);
    assert.deepEqual(log.map((e) => [e.statement, e.rowsAffected ?? "0", e.error ?? ""]), [
      ["create table items (id int primary key)", "0", ""],
      ["insert into items values (1), (2), (3)", "3", ""],
    ]);
    assert.equal((await pgRows(pg.ddl, "select count(*)::int as n from items"))[0]!.n, 3);
    assert.equal((await ok("GET", `/v1/${started.name}`)).tasks[0].state, "DONE");
    // The rollout itself follows its runs' ends beside the jobs, a pass at most every 50 ms (follow-ups.ts).
    await eventually(async () => (await ok("GET", `/v1/${started.name}`)).state === "DONE", 5_000);
  });

  it("a failing statement on PostgreSQL fails the run with the server's message and applies nothing", async () => {
    const started = await rollout("exec", [pg.fails.resource], "create table kept (id int);\ninsert into nosuch values (1);");
    const run = await runInState(started.tasks[0], FINAL);
    assert.equal(run.state, "FAILED");
    assert.equal(run.error, 'relation "nosuch" does not exist');
    assert.equal(run.detail, "statement 2 of 2 failed; the transaction was rolled back: nothing was applied");
    const log = await logOf(run);
    assert.deepEqual(log.map((e) => e.error ?? ""), ["", 'relation "nosuch" does not exist']);
    assert.equal((await pgRows(pg.fails, "select to_regclass('kept') is null as absent"))[0]!.absent, true);
    assert.equal((await ok("GET", `/v1/${started.name}`)).tasks[0].state, "FAILED");
  });

  it("a failing statement on MySQL fails the run; the statements before it were applied, as the log says", { skip: !mysqlAvailable && "no MySQL at 127.0.0.1:3306" }, async () => {
    const started = await rollout("exec", [myResource], "create table first_one (id int);\ninsert into counter values (1);\ninsert into nosuch values (1);\ncreate table never (id int);");
    const run = await runInState(started.tasks[0], FINAL);
    assert.equal(run.state, "FAILED");
    assert.equal(run.error, `Table '${myDatabase}.nosuch' doesn't exist`);
    assert.equal(run.detail, "statement 3 of 4 failed; statements 1–2 were applied");
    const log = await logOf(run);
    assert.deepEqual(log.map((e) => [e.rowsAffected ?? "0", Boolean(e.error)]), [["0", false], ["1", false], ["0", true]]);
    const [tables] = await my!.query("select table_name as t from information_schema.tables where table_schema = ? order by 1", [myDatabase]);
    assert.deepEqual((tables as Json[]).map((r) => r.t), ["counter", "first_one"]);
  });

  it("runs CREATE INDEX CONCURRENTLY statement by statement, logging each", async () => {
    const started = await rollout("exec", [pg.concurrently.resource], "create table big (id int);\ncreate index concurrently big_id on big (id);\ncomment on table big is 'x';");
    const run = await runInState(started.tasks[0], FINAL);
    assert.equal(run.state, "DONE", JSON.stringify(run));
    assert.equal(run.detail, "applied 3 statements one by one");
    assert.equal((await logOf(run)).length, 3);
    assert.equal((await pgRows(pg.concurrently, "select to_regclass('big_id') is not null as found"))[0]!.found, true);
  });

  it("stops a statement at the project's statement timeout", async () => {
    const started = await rollout("exec-limits", [pg.timeout.resource], "create table slow (id int);\nselect pg_sleep(10);");
    const begun = performance.now();
    const run = await runInState(started.tasks[0], FINAL);
    assert.equal(run.state, "FAILED");
    assert.equal(run.error, "canceling statement due to statement timeout");
    assert.ok(performance.now() - begun < 8_000);
    assert.equal((await pgRows(pg.timeout, "select to_regclass('slow') is null as absent"))[0]!.absent, true);
  });

  it("a cancel reaches the running statement on PostgreSQL within seconds and rolls the run back", async () => {
    await pg.cancel.query("create table marks (n int)");
    // No DDL: the plan check's dry run runs the script too (rolled back), and a CREATE TABLE there would block this one.
    const started = await rollout("exec", [pg.cancel.resource], "insert into marks values (1);\nselect pg_sleep(30);");
    const task = started.tasks[0];
    const running = await runInState(task, "RUNNING");
    // The run's own session (the plan check's dry run may be sleeping too, in its own).
    let pid = 0;
    await eventually(async () => (pid = await backendPid(app.db, running)) > 0);
    const sleeping = async () =>
      (await pgRows(pg.cancel, `select count(*)::int as n from pg_stat_activity where pid = ${pid} and state = 'active' and query = 'select pg_sleep(30)'`))[0]!.n;
    await eventually(async () => (await sleeping()) === 1);
    const asked = performance.now();
    await ok("POST", `/v1/${task.name}/taskRuns:batchCancel`, { taskRuns: [running.name], reason: "too slow" });
    const run = await runInState(task, FINAL, 10_000);
    const tookMs = performance.now() - asked;
    assert.equal(run.state, "CANCELED");
    assert.equal(run.detail, "canceled by users/admin: too slow");
    assert.ok(tookMs < 5_000, `the cancel took ${Math.round(tookMs)} ms`);
    assert.equal(await sleeping(), 0, "the statement no longer runs on the target");
    assert.equal((await pgRows(pg.cancel, "select count(*)::int as n from marks"))[0]!.n, 0, "the insert was rolled back");
  });

  it("a cancel reaches the running statement on MySQL with KILL QUERY", { skip: !mysqlAvailable && "no MySQL at 127.0.0.1:3306" }, async () => {
    const started = await rollout("exec", [myResource], "select sleep(30);\ncreate table after_sleep (id int);");
    const task = started.tasks[0];
    const running = await runInState(task, "RUNNING");
    await eventually(async () => ((await my!.query("select 1 from information_schema.processlist where info = 'select sleep(30)'"))[0] as unknown[]).length === 1);
    const asked = performance.now();
    await ok("POST", `/v1/${task.name}/taskRuns:batchCancel`, { taskRuns: [running.name], reason: "not now" });
    const run = await runInState(task, FINAL, 10_000);
    assert.equal(run.state, "CANCELED");
    assert.ok(performance.now() - asked < 5_000);
    const [left] = await my!.query("select 1 from information_schema.tables where table_schema = ? and table_name = 'after_sleep'", [myDatabase]);
    assert.equal((left as unknown[]).length, 0);
  });

  it("runs one change at a time per database: the second waits, 'database busy', and starts when the first ends", async () => {
    // The first run holds the database until the waiting run's lock has been looked at: a second run
    // that ran and ended meanwhile would leave its own lock to its connection's next lock statement.
    await pg.busy.query(HOLD_TABLE);
    await pg.busy.query("update hold set held = true");
    const first = await rollout("exec", [pg.busy.resource], `create table one (id int);\n${WAIT_WHILE_HELD};`);
    await runInState(first.tasks[0], "RUNNING");
    const second = await rollout("exec", [pg.busy.resource], "create table two (id int);");
    const waiting = await ok("GET", `/v1/${second.name}`);
    assert.equal(waiting.tasks[0].state, "PENDING");
    assert.equal(waiting.tasks[0].waitingReason, "database busy");
    // The waiting run's job has ended, and let its run's lock go (it is dispatched again, and must find the lock free).
    const secondRunId = Number(String(waiting.tasks[0].latestTaskRun).split("/").at(-1));
    const exists = async (query: ReturnType<typeof sql.fragment>) => app.db.oneFirst(sql.type(z.object({ found: z.boolean() }))`select exists (${query}) as found`);
    await eventually(async () => !(await exists(sql.fragment`select 1 from graphile_worker._private_jobs where key = ${`taskRun:${secondRunId}`}`)));
    const runLockHeld = await exists(sql.fragment`
      select 1 from pg_locks where locktype = 'advisory' and classid = ${TASK_RUN_LOCK_CLASS} and objid = ${secondRunId} and objsubid = 2
        and database = (select oid from pg_database where datname = current_database())`);
    assert.equal(runLockHeld, false);
    await pg.busy.query("update hold set held = false");
    const firstRun = await runInState(first.tasks[0], FINAL);
    const secondRun = await runInState(second.tasks[0], FINAL);
    assert.deepEqual([firstRun.state, secondRun.state], ["DONE", "DONE"]);
    assert.ok(Date.parse(secondRun.startTime) >= Date.parse(firstRun.endTime), `${secondRun.startTime} < ${firstRun.endTime}`);
    // Dispatched by the first run's end, not found later by the reconciler's pass.
    assert.ok(Date.parse(secondRun.startTime) - Date.parse(firstRun.endTime) < 1_000, `${secondRun.startTime} long after ${firstRun.endTime}`);
  });

  it("runs at most parallel_tasks_per_rollout tasks of a rollout at once", async () => {
    const started = await rollout("exec-limits", [pg.slot1.resource, pg.slot2.resource], "select pg_sleep(0.5);");
    const runs = await Promise.all((started.tasks as Json[]).map((t) => runInState(t, FINAL)));
    assert.deepEqual(runs.map((r) => r.state), ["DONE", "DONE"]);
    const [a, b] = runs.map((r) => [Date.parse(r.startTime), Date.parse(r.endTime)] as const).sort((x, y) => x[0] - y[0]) as [[number, number], [number, number]];
    assert.ok(b[0] >= a[1], "the second task started after the first ended");
    assert.ok(b[0] - a[1] < 1_000, "the second task was dispatched by the first one's end");
  });

  it("never executes a run twice: jobs enqueued again while it runs and after it ended do nothing", async () => {
    await pg.twice.query("create table counter (n int)");
    const started = await rollout("exec", [pg.twice.resource], "insert into counter values (1);\nselect pg_sleep(1);");
    const running = await runInState(started.tasks[0], "RUNNING");
    const runId = Number(String(running.name).split("/").at(-1));
    await addJob(app.db, "taskRun.execute", { taskRunId: runId });
    const done = await runInState(started.tasks[0], FINAL);
    assert.equal(done.state, "DONE");
    await addJob(app.db, "taskRun.execute", { taskRunId: runId });
    await eventually(async () => (await app.db.oneFirst(jobCount(runId))) === 0);
    assert.equal((await pgRows(pg.twice, "select count(*)::int as n from counter"))[0]!.n, 1);
    assert.deepEqual(await latestRun(started.tasks[0]), done);
  });

  it("a suspension stops a statement-by-statement run at the boundary; a new run continues from its next statement", async () => {
    await pg.suspend.query("create table marks (n int)");
    const started = await rollout("exec", [pg.suspend.resource],
      "insert into marks values (1);\ncreate index concurrently marks_n on marks (n);\nselect pg_sleep(1);\ninsert into marks values (2);");
    const task = started.tasks[0];
    const running = await runInState(task, "RUNNING");
    const runId = Number(String(running.name).split("/").at(-1));
    let pid = 0;
    await eventually(async () => (pid = await backendPid(app.db, running)) > 0);
    await eventually(async () => (await pgRows(pg.suspend, `select count(*)::int as n from pg_stat_activity where pid = ${pid} and query = 'select pg_sleep(1)'`))[0]!.n === 1);
    await app.db.transaction((tx) => requestCancel(tx, [runId], `${SUSPENSION_PREFIX}maintenance`, { suspend: true }));
    await eventually(async () => (await ok("GET", `/v1/${task.name}/taskRuns`)).taskRuns.length === 2);
    const [continuation, suspended] = (await ok("GET", `/v1/${task.name}/taskRuns`)).taskRuns as [Json, Json];
    assert.equal(suspended.state, "CANCELED");
    assert.equal(suspended.detail, "suspended by emergency pause: maintenance");
    assert.deepEqual((await logOf(suspended)).map((e) => e.error ?? ""), ["", "", ""], "pg_sleep ran to its end");
    const done = await runInState(task, FINAL);
    assert.equal(done.name, continuation.name);
    assert.equal(done.state, "DONE");
    // What is left has no statement that forbids a transaction.
    assert.equal(done.detail, "applied 1 statement in one transaction, continuing from statement 4");
    assert.deepEqual((await logOf(done)).map((e) => e.statement), ["insert into marks values (2)"]);
    assert.deepEqual((await pgRows(pg.suspend, "select n from marks order by n")).map((r) => r.n), [1, 2], "no statement applied twice");
  });

  /** The plan's rollout, made with its runs' jobs taken away in the same transaction (a dispatch lost, or held back). */
  async function rolloutWithoutJobs(planId: string) {
    return app.db.transaction(async (tx) => {
      const made = await createRollout(tx, { projectId: "exec", planId, issueId: undefined, creator: "users/admin" });
      await tx.query(sql.unsafe`delete from graphile_worker._private_jobs where key like 'taskRun:%'
        and (payload->>'taskRunId')::bigint in (select id from task_run where project_id = 'exec' and rollout_id = ${made.id})`);
      return made;
    });
  }

  it("dispatches a PENDING run whose job was lost (the reconciler)", async () => {
    const plan = await ok("POST", "/v1/projects/exec/plans", { title: "lost", specs: [{ changeDatabaseConfig: { targets: [pg.stranded.resource], statement: "create table found (id int)" } }] });
    const planId = String(plan.name).split("/").at(-1)!;
    const created = await rolloutWithoutJobs(planId);
    const task = (await ok("GET", `/v1/${rolloutName(created)}`)).tasks[0];
    assert.equal((await latestRun(task)).state, "PENDING");
    const run = await runInState(task, FINAL, 25_000);
    assert.equal(run.state, "DONE");
    assert.equal((await pgRows(pg.stranded, "select to_regclass('found') is not null as found"))[0]!.found, true);
  });

  it("fails a run whose instance was deleted after its rollout was made, touching nothing", async () => {
    const target = await createPgTarget();
    try {
      await createInstanceOk(rest, token, "exec-gone", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
      const resource = `instances/exec-gone/databases/${target.name}`;
      await eventually(async () => (await call("GET", `/v1/${resource}`)).body.syncState === "OK");
      await ok("POST", "/v1/databases:transfer", { databases: [resource], targetProject: "projects/exec" });
      const plan = await ok("POST", "/v1/projects/exec/plans", { title: "gone", specs: [{ changeDatabaseConfig: { targets: [resource], statement: "create table never (id int)" } }] });
      const planId = String(plan.name).split("/").at(-1)!;
      // The run's job is held back until the instance is gone.
      const created = await rolloutWithoutJobs(planId);
      const task = (await ok("GET", `/v1/${rolloutName(created)}`)).tasks[0];
      await ok("DELETE", "/v1/instances/exec-gone");
      await addJob(app.db, "taskRun.execute", { taskRunId: Number(String((await latestRun(task)).name).split("/").at(-1)) });
      const run = await runInState(task, FINAL);
      assert.equal(run.state, "FAILED");
      assert.match(run.error, /instance "instances\/exec-gone" is deleted/);
      assert.match(run.detail, /nothing was applied/);
      assert.equal((await pgRows(target, "select to_regclass('never') is null as absent"))[0]!.absent, true);
    } finally {
      await target.drop();
    }
  });

  it("refuses to record the session of a run that is not RUNNING: its script must not go on", async () => {
    const plan = await ok("POST", "/v1/projects/exec/plans", { title: "unrecorded", specs: [{ changeDatabaseConfig: { targets: [pg.stranded.resource], statement: "select 1" } }] });
    const created = await rolloutWithoutJobs(String(plan.name).split("/").at(-1)!);
    const task = (await ok("GET", `/v1/${rolloutName(created)}`)).tasks[0];
    const runId = Number(String((await latestRun(task)).name).split("/").at(-1));
    await assert.rejects(recordRunSession(app.db, runId, { pid: 1, xid: "1" }, true), /is no longer RUNNING/);
  });

  it("counts the runs that ended in svc_task_run_total", async () => {
    const counts = Object.fromEntries((await metrics.taskRuns.get()).values.map((v) => [v.labels.state, v.value]));
    assert.ok((counts.done ?? 0) >= 5, JSON.stringify(counts));
    assert.ok((counts.failed ?? 0) >= 2, JSON.stringify(counts));
    assert.ok((counts.canceled ?? 0) >= 1, JSON.stringify(counts));
  });
});

/** Jobs of the run still in the queue (waiting or running). */
function jobCount(runId: number) {
  return sql.type(z.object({ n: z.coerce.number() }))`
    select count(*) as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
    where t.identifier = 'taskRun.execute' and j.payload->>'taskRunId' = ${String(runId)}`;
}

/** The PostgreSQL backend a RUNNING run executes in, as the worker recorded it (0 until then). */
async function backendPid(db: Db, run: Json): Promise<number> {
  const runId = Number(String(run.name).split("/").at(-1));
  const pid = await db.maybeOneFirst(sql.type(z.object({ pid: z.coerce.number().nullable() }))`select (backend->>'pid')::int as pid from task_run where id = ${runId}`);
  return pid ?? 0;
}
