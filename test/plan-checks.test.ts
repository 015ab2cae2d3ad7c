// Plan check runs executed by the real worker (contract §10.2, §10.3) against
// real targets: SQL review under the target environment's rules, a summary
// with EXPLAIN estimates, and a dry run that catches an error and leaves the
// target unchanged; an unreachable target fails the run with a result naming
// it; MariaDB/MySQL when one answers at 127.0.0.1:3306.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createMetrics } from "../shared/platform/metrics.ts";
import { executeCheckRun } from "../shared/change/plan-check/run-checks.ts";
import { targetResolver } from "../shared/change/plan-check/target-resolver.ts";
import { getStoredSetting } from "../shared/governance/settings/setting.store.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { closedPort, connectMysql, createInstanceOk, createPgTarget, eventually, mysqlAdminSource, pgAdminSource, testSecrets, uniqueName } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;

describe("plan checks", () => {
  let app: TestApp;
  let worker: Worker;
  let rest: ReturnType<typeof restClient>;
  let token = "";
  const metrics = createMetrics({ threadPoolSize: 4 });
  const cleanups: (() => Promise<unknown>)[] = [];
  const call = async (method: string, path: string, body?: unknown) => (await rest<Json>(method, path, { token, body })).body;

  /** Makes the instance's database a database of project `checks`, once sync has found it. */
  const adopt = async (instance: string, database: string) => {
    const name = `instances/${instance}/databases/${database}`;
    await eventually(async () => (await call("GET", `/v1/${name}`)).syncState === "OK");
    const moved = await call("POST", "/v1/databases:transfer", { databases: [name], targetProject: "projects/checks" });
    assert.ok(moved.databases, JSON.stringify(moved));
    return name;
  };
  /** The plan's latest run once it has ended. */
  const finishedRun = async (plan: string) => {
    let run: Json = {};
    await eventually(async () => {
      run = (await call("GET", `/v1/${plan}/planCheckRuns?latestOnly=true`)).planCheckRuns[0];
      return run.status !== "RUNNING";
    }, 60_000);
    return run;
  };
  const planOn = async (target: string, statement: string) => {
    const plan = await call("POST", "/v1/projects/checks/plans", { title: "check me", specs: [{ changeDatabaseConfig: { targets: [target], statement } }] });
    assert.ok(plan.name, JSON.stringify(plan));
    return plan.name as string;
  };
  const resultsOf = (run: Json, type: string) => (run.results as Json[]).filter((r) => r.type === type);

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token = await signInFirstAdmin(rest);
    worker = await startWorker({ url: app.database.url, db: app.db, logger: quietLogger(), secrets: testSecrets(), metrics, webhookAllowPrivate: false, externalUrl: undefined });
    assert.ok((await call("POST", "/v1/projects?projectId=checks", {})).name);
  });
  after(async () => {
    await worker.stop();
    for (const cleanup of cleanups) await cleanup();
    await app.close();
  });

  it("reviews, summarizes and dry-runs a PostgreSQL change without changing the target", async () => {
    const target = await createPgTarget([
      "create table employee (id integer primary key, name text not null)",
      "insert into employee select n, 'e' || n from generate_series(1, 500) n",
      "analyze employee",
    ]);
    cleanups.push(target.drop);
    await createInstanceOk(rest, token, "pg-checks", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    const database = await adopt("pg-checks", target.name);

    const statement = "update employee set name = 'x';\nalter table employee add column nickname text;\nupdate employee set missing_column = 1 where id = 1;";
    const plan = await planOn(database, statement);
    const run = await finishedRun(plan);
    assert.equal(run.status, "DONE", JSON.stringify(run));

    const advice = resultsOf(run, "STATEMENT_ADVISE");
    const noWhere = advice.find((r) => r.code === "statement.where-required-update-delete");
    assert.deepEqual([noWhere?.status, noWhere?.line, noWhere?.target], ["WARNING", 1, database], JSON.stringify(advice));

    const [summary] = resultsOf(run, "STATEMENT_SUMMARY_REPORT") as [Json];
    assert.deepEqual(summary.summary.sqlTypes, ["UPDATE", "ALTER_TABLE"]);
    assert.ok(Number(summary.summary.affectedRows) >= 500, JSON.stringify(summary));

    const [dryRun] = resultsOf(run, "DRY_RUN") as [Json];
    assert.deepEqual([dryRun.status, dryRun.code, dryRun.line], ["ERROR", "dry-run-failed", 3], JSON.stringify(dryRun));
    assert.match(dryRun.content, /missing_column/);

    const columns = await target.query("select column_name from information_schema.columns where table_name = 'employee' order by 1") as { rows: Json[] };
    assert.deepEqual(columns.rows.map((r) => r.column_name), ["id", "name"], "the dry run left no column behind");
    const names = await target.query("select count(*)::int as n from employee where name = 'x'") as { rows: Json[] };
    assert.equal(names.rows[0]!.n, 0, "the dry run changed no row");

    const counted = await call("GET", `/v1/${plan}`);
    assert.ok(counted.planCheckRunStatusCount.ERROR >= 1 && counted.planCheckRunStatusCount.WARNING >= 1, JSON.stringify(counted));
    assert.match(await metrics.registry.getSingleMetricAsString("svc_plan_check_run_duration_seconds"), /svc_plan_check_run_duration_seconds_count\{status="DONE"\} [1-9]/);

    // The same change on a database of prod: the starred rules are errors there.
    const patched = await call("PATCH", `/v1/${database}?updateMask=environment`, { environment: "environments/prod" });
    assert.equal(patched.environment, "environments/prod", JSON.stringify(patched));
    const rerun = await call("POST", `/v1/${plan}:runPlanChecks`, {});
    assert.equal(rerun.status, "RUNNING");
    const prodRun = await finishedRun(plan);
    assert.equal(resultsOf(prodRun, "STATEMENT_ADVISE").find((r) => r.code === "statement.where-required-update-delete")?.status, "ERROR");
  });

  it("dry-runs each spec on top of the plan's earlier specs on the same target", async () => {
    const target = await createPgTarget();
    cleanups.push(target.drop);
    await createInstanceOk(rest, token, "pg-layers", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    const database = await adopt("pg-layers", target.name);
    const spec = (statement: string) => ({ changeDatabaseConfig: { targets: [database], statement } });
    const layered = await call("POST", "/v1/projects/checks/plans", {
      title: "two layers",
      specs: [spec("create table layer (id int primary key)"), spec("alter table layer add column note text;\ninsert into layer values (1, 'a');")],
    });
    const run = await finishedRun(layered.name);
    assert.deepEqual(resultsOf(run, "DRY_RUN").filter((r) => r.status === "ERROR"), [], "the second spec sees the table the first creates");
    await assert.rejects(target.query("select 1 from layer"), /does not exist/, "nothing of either spec stays");

    const alone = await finishedRun(await planOn(database, "alter table layer add column note text;"));
    assert.match(resultsOf(alone, "DRY_RUN").find((r) => r.status === "ERROR")?.content ?? "", /layer/, "alone, the second spec fails");
  });

  it("fails the run with an ERROR result naming an unreachable target, and reviews it all the same", async () => {
    const target = await createPgTarget(["create table t (id integer primary key)"]);
    cleanups.push(target.drop);
    await createInstanceOk(rest, token, "pg-gone", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    const database = await adopt("pg-gone", target.name);
    const port = await closedPort();
    await adminQuery(`update instance set data_sources = jsonb_set(data_sources, '{0,port}', '${port}') where id = 'pg-gone'`, app.database.url);
    const plan = await planOn(database, "delete from t;");
    const run = await finishedRun(plan);
    assert.equal(run.status, "FAILED");
    assert.match(run.error, new RegExp(`${database}: cannot connect to 127\\.0\\.0\\.1:${port}: connection refused`));
    const unreachable = (run.results as Json[]).find((r) => r.code === "target-unreachable");
    assert.deepEqual([unreachable?.type, unreachable?.status, unreachable?.target], ["DRY_RUN", "ERROR", database]);
    assert.ok(resultsOf(run, "STATEMENT_ADVISE").some((r) => r.code === "statement.where-required-update-delete"));
  });

  it("checks a MariaDB/MySQL change: review, and a dry run that changes nothing", async (t) => {
    const connection = await connectMysql();
    if (!connection) return t.skip("no MariaDB/MySQL answers at 127.0.0.1:3306");
    const schema = uniqueName("chk");
    await connection.query(`create database ${schema}`);
    await connection.query(`create table ${schema}.item (id int primary key, label varchar(20) not null) engine=InnoDB`);
    await connection.query(`insert into ${schema}.item values (1, 'a'), (2, 'b'), (3, 'c')`);
    cleanups.push(async () => {
      await connection.query(`drop database if exists ${schema}`);
      await connection.end();
    });
    await createInstanceOk(rest, token, "my-checks", { engine: "MYSQL", environment: "environments/test", dataSources: [mysqlAdminSource()] });
    const database = await adopt("my-checks", schema);
    const plan = await planOn(database, "delete from item;\nalter table item drop column nothing_here;");
    const run = await finishedRun(plan);
    assert.equal(run.status, "DONE", JSON.stringify(run));
    assert.ok(resultsOf(run, "STATEMENT_ADVISE").some((r) => r.code === "statement.where-required-update-delete" && r.line === 1));
    const dryRun = resultsOf(run, "DRY_RUN").find((r) => r.status === "ERROR");
    assert.ok(dryRun, JSON.stringify(resultsOf(run, "DRY_RUN")));
    assert.match(dryRun.content, /nothing_here/);
    assert.equal(dryRun.line, 2);
    const [rows] = (await connection.query(`select count(*) as n from ${schema}.item`)) as [Json[], unknown];
    assert.equal(Number(rows[0]!.n), 3, "the dry run deleted nothing");

    const layered = await call("POST", "/v1/projects/checks/plans", {
      title: "two layers",
      specs: ["create table layer (id int primary key)", "alter table layer add column note text"].map((statement) => ({ changeDatabaseConfig: { targets: [database], statement } })),
    });
    const layeredRun = await finishedRun(layered.name);
    assert.deepEqual(resultsOf(layeredRun, "DRY_RUN").filter((r) => r.status === "ERROR"), [], "the second spec's check sees the table the first creates");
    const [tables] = (await connection.query(`select count(*) as n from information_schema.tables where table_schema = '${schema}' and table_name = 'layer'`)) as [Json[], unknown];
    assert.equal(Number(tables[0]!.n), 0, "the dry run created nothing");
  });
});

describe("plan check time limit", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let token = "";
  const metrics = createMetrics({ threadPoolSize: 4 });
  const cleanups: (() => Promise<unknown>)[] = [];
  const call = async (method: string, path: string, body?: unknown) => (await rest<Json>(method, path, { token, body })).body;

  before(async () => {
    // No worker: the run is executed below, with a short limit.
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token = await signInFirstAdmin(rest);
  });
  after(async () => {
    for (const cleanup of cleanups) await cleanup();
    await app.close();
  });

  it("ends a run that outlasts its limit FAILED with the reason, and drops what finishes later", async () => {
    const target = await createPgTarget();
    cleanups.push(target.drop);
    await createInstanceOk(rest, token, "pg-slow", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    await adminQuery(`insert into instance_database (instance_id, name) values ('pg-slow', '${target.name}')`, app.database.url);
    const plan = await call("POST", "/v1/projects/default/plans", {
      specs: [{ changeDatabaseConfig: { targets: [`instances/pg-slow/databases/${target.name}`], statement: "select pg_sleep(2);" } }],
    });
    const run = (await call("GET", `/v1/${plan.name}/planCheckRuns?latestOnly=true`)).planCheckRuns[0];
    const deps = {
      db: app.db,
      settings: { get: (name: string) => getStoredSetting(app.db, name) },
      metrics,
      logger: quietLogger(),
      resolveTarget: targetResolver(app.db, testSecrets()),
      timeLimitMs: 300,
    };
    const started = Date.now();
    await executeCheckRun(deps, Number(run.name.split("/").pop()));
    assert.ok(Date.now() - started < 1_500, "the limit ended the run before the statement did");
    const failed = await call("GET", `/v1/${run.name}`);
    assert.deepEqual([failed.status, failed.error, failed.results ?? []], ["FAILED", "the run exceeded its limit of 0.300s", []]);
    assert.match(await metrics.registry.getSingleMetricAsString("svc_plan_check_run_duration_seconds"), /_count\{status="FAILED"\} 1/);
    await new Promise((r) => setTimeout(r, 2_500)); // the checks still under way finish, and change nothing
    assert.equal((await call("GET", `/v1/${run.name}`)).status, "FAILED");
  });
});
