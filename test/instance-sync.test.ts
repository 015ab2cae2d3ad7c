// Instance sync (contract §9.3) run by the real worker against real target
// servers: it discovers databases and their schema metadata, marks vanished
// databases DELETED (and revives them), records a FAILED sync with the reason
// when the server cannot be reached without stopping the worker, and syncs
// MariaDB/MySQL schemas when such a server answers at 127.0.0.1:3306.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { enqueueEveryInstanceSync } from "../shared/inventory/instance/instance-sync-jobs.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { closedPort, connectMysql, createInstanceOk, createPgTarget, eventually, mysqlAdminSource, pgAdminSource, testSecrets, uniqueName } from "./helpers/instances.ts";
import { createMetrics } from "../shared/platform/metrics.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;

describe("instance sync", () => {
  let app: TestApp;
  let worker: Worker;
  let rest: ReturnType<typeof restClient>;
  let token = "";
  const cleanups: (() => Promise<unknown>)[] = [];

  const get = async (path: string) => (await rest<Json>("GET", path, { token })).body;
  const sync = async (id: string) => assert.equal((await rest("POST", `/v1/instances/${id}:sync`, { token, body: {} })).status, 200);
  const sql = async (text: string) => (await adminQuery(text, app.database.url)).rows as Json[];
  const timeOf = (time: string | undefined) => (time ? Date.parse(time) : -Infinity);
  /** The instance once a sync finished after `since` (its lastSyncTime before; "" = never synced). */
  const syncedAfter = async (id: string, since: string | undefined) => {
    await eventually(async () => timeOf((await get(`/v1/instances/${id}`)).lastSyncTime) > timeOf(since));
    return get(`/v1/instances/${id}`);
  };
  // A MySQL database's one schema is named "", which proto JSON leaves out.
  const tableNames = (metadata: Json, schema: string) => (metadata.schemas as Json[]).find((s) => (s.name ?? "") === schema)?.tables.map((t: Json) => t.name);

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token = await signInFirstAdmin(rest);
    worker = await startWorker({ url: app.database.url, db: app.db, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: false, externalUrl: undefined });
  });
  after(async () => {
    await worker.stop();
    for (const cleanup of cleanups) await cleanup();
    await app.close();
  });

  it("discovers a created database and a created table, with their metadata", async () => {
    const target = await createPgTarget(["create table widgets (id integer primary key, name text not null default 'w')"]);
    cleanups.push(target.drop);
    await createInstanceOk(rest, token, "pg-sync", { engine: "POSTGRES", environment: "environments/prod", dataSources: [pgAdminSource()] });
    const instance = await syncedAfter("pg-sync", "");
    assert.deepEqual([instance.syncState, instance.syncError ?? ""], ["OK", ""]);
    assert.match(instance.engineVersion, /^\d+/);

    const database = await get(`/v1/instances/pg-sync/databases/${target.name}`);
    assert.deepEqual([database.project, database.environment, database.state, database.syncState, database.engine], [
      "projects/default", "environments/prod", "ACTIVE", "OK", "POSTGRES",
    ]);
    const metadata = await get(`/v1/instances/pg-sync/databases/${target.name}/metadata`);
    assert.equal(metadata.name, `instances/pg-sync/databases/${target.name}/metadata`);
    const widgets = metadata.schemas.find((s: Json) => s.name === "public").tables.find((t: Json) => t.name === "widgets");
    assert.deepEqual(widgets.columns.map((c: Json) => [c.name, c.type, c.nullable ?? false]), [["id", "integer", false], ["name", "text", false]]);
    assert.deepEqual(widgets.indexes.map((i: Json) => [i.expressions, i.primary]), [[["id"], true]]);

    await target.query("create table gadgets (id bigint primary key)");
    await sync("pg-sync");
    await eventually(async () => (tableNames(await get(`/v1/instances/pg-sync/databases/${target.name}/metadata`), "public") ?? []).includes("gadgets"));
    assert.deepEqual(tableNames(await get(`/v1/instances/pg-sync/databases/${target.name}/metadata`), "public"), ["gadgets", "widgets"]);
  });

  it("marks a database gone from the server DELETED, and revives it when it is back", async () => {
    const target = await createPgTarget();
    const path = `/v1/instances/pg-sync/databases/${target.name}`;
    // A sync already under way may have listed the databases before the change: sync again until one sees it.
    const syncUntilState = async (state: string) => {
      for (let attempt = 0; attempt < 20; attempt++) {
        await sync("pg-sync");
        const seen = await eventually(async () => (await get(path)).state === state, 1_000).then(() => true, () => false);
        if (seen) return;
      }
      assert.fail(`${path} did not become ${state}`);
    };
    await syncUntilState("ACTIVE");

    await target.drop();
    await syncUntilState("DELETED");
    const listed = await get(`/v1/instances/pg-sync/databases?filter=${encodeURIComponent(`name=${target.name}`)}`);
    assert.deepEqual(listed.databases ?? [], [], "deleted databases are listed only with showDeleted");

    await adminQuery(`create database ${target.name}`);
    cleanups.push(target.drop);
    await syncUntilState("ACTIVE");
  });

  it("records a FAILED sync with the reason when the server cannot be reached, and goes on working", async () => {
    await createInstanceOk(rest, token, "pg-flaky", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    let since = (await syncedAfter("pg-flaky", "")).lastSyncTime;
    const port = await closedPort();
    await sql(`update instance set data_sources = jsonb_set(data_sources, '{0,port}', '${port}') where id = 'pg-flaky'`);
    await sync("pg-flaky");
    const failed = await syncedAfter("pg-flaky", since);
    assert.equal(failed.syncState, "FAILED");
    assert.match(failed.syncError, new RegExp(`cannot connect to 127\\.0\\.0\\.1:${port}: connection refused`));
    assert.ok(!failed.syncError.includes(String(pgAdminSource().password)));

    await sql(`update instance set data_sources = jsonb_set(data_sources, '{0,port}', '${pgAdminSource().port}') where id = 'pg-flaky'`);
    since = failed.lastSyncTime;
    await sync("pg-flaky");
    const recovered = await syncedAfter("pg-flaky", since);
    assert.deepEqual([recovered.syncState, recovered.syncError ?? ""], ["OK", ""]);
    const jobs = await sql(`select count(*)::int as n from graphile_worker.jobs where key like 'instance.sync:%' and attempts > 0`);
    assert.equal(jobs[0]!.n, 0, "a failed sync is not a failed job");
  });

  it("a deleted instance is not synced; the leader's schedule covers every active instance", async () => {
    await rest("DELETE", "/v1/instances/pg-flaky", { token });
    const since = (await get("/v1/instances/pg-flaky")).lastSyncTime;
    await sql(`select graphile_worker.add_job('instance.sync', '{"instanceId": "pg-flaky"}'::json)`);
    await eventually(async () => (await sql(`select id from graphile_worker.jobs where task_identifier = 'instance.sync'`)).length === 0);
    assert.equal((await get("/v1/instances/pg-flaky")).lastSyncTime, since);

    const active = await sql(`select id from instance where state = 'ACTIVE'`);
    assert.equal(await enqueueEveryInstanceSync(app.db), active.length);
    assert.ok(active.length >= 1);
  });

  it("syncs MariaDB/MySQL schemas, without the system ones", async (t) => {
    const connection = await connectMysql();
    if (!connection) return t.skip("no MariaDB/MySQL server at 127.0.0.1:3306");
    const schema = uniqueName("tgt");
    try {
      await connection.query(`create database ${schema}`);
      await connection.query(`create table ${schema}.gadgets (id int primary key, label varchar(20) not null)`);
      await createInstanceOk(rest, token, "my-sync", { engine: "MYSQL", environment: "environments/test", dataSources: [mysqlAdminSource()] });
      const instance = await syncedAfter("my-sync", "");
      assert.equal(instance.syncState, "OK", instance.syncError);
      const names = ((await get(`/v1/instances/my-sync/databases?pageSize=1000`)).databases as Json[]).map((d) => d.name);
      assert.ok(names.includes(`instances/my-sync/databases/${schema}`), names.join(", "));
      for (const system of ["mysql", "information_schema", "performance_schema", "sys"]) assert.ok(!names.includes(`instances/my-sync/databases/${system}`));
      const metadata = await get(`/v1/instances/my-sync/databases/${schema}/metadata`);
      assert.deepEqual(tableNames(metadata, ""), ["gadgets"]);
    } finally {
      await connection.query(`drop database if exists ${schema}`);
      await connection.end();
    }
  });
});
