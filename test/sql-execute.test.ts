// SQL Editor Execute (contract §14.1, §14.3, §14.4, §18.2) on real targets:
// refused in PIPELINE mode and during the emergency pause; in EDITOR mode the
// script runs statement by statement on the ADMIN data source with the rows
// each changed and its duration, the first failure ending it (PostgreSQL in
// one transaction, as a task run; MariaDB/MySQL statement by statement);
// query_timeout and a client that goes away cancel it; each run is audited
// and kept in the query history.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import mysql from "mysql2/promise";
import { syncInstance } from "../shared/inventory/instance/instance-sync.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { connectMysql, createInstanceOk, createPgTarget, eventually, MYSQL, mysqlAdminSource, pgAdminSource, testSecrets, uniqueName } from "./helpers/instances.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";

type Json = Record<string, any>;

describe("SQL Editor execute", async () => {
  const mysqlAvailable = await connectMysql().then(async (c) => (c ? (await c.end(), true) : false));
  const noMysql = !mysqlAvailable && "no MySQL at 127.0.0.1:3306";
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let admin = "";
  let target: Awaited<ReturnType<typeof createPgTarget>>;
  let my: mysql.Connection | undefined;
  const myDatabase = uniqueName("sqlx_my");
  const pgName = () => `instances/sqlx-pg/databases/${target.name}`;
  const myName = `instances/sqlx-my/databases/${myDatabase}`;

  const execute = (name: string, statement: string, extra: Json = {}, token = admin) =>
    rest<Json>("POST", "/v1/sql:execute", { token, body: { name, statement, ...extra } });
  const pgRows = async (sql: string) => (await target.query(sql)).rows;
  const myRows = async (sql: string) => (await my!.query(sql))[0] as Json[];
  const refusal = (reply: { status: number; body: Json }) => [reply.status, reply.body.code, reply.body.message];
  const lastAudit = async () =>
    (await adminQuery("select status_code, resource, request, detail from audit_log where action = 'bb.sql.execute' order by id desc limit 1", app.database.url)).rows[0];
  const history = async () => ((await rest<Json>("GET", "/v1/queryHistories?filter=type%3DEXECUTE", { token: admin })).body.queryHistories ?? []) as Json[];
  const setSetting = async (name: string, value: Json) => {
    const reply = await rest("PATCH", `/v1/settings/${name}?updateMask=*`, { token: admin, body: { value } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    admin = await signInFirstAdmin(rest);
    target = await createPgTarget(["create table items (id int primary key, name text)", "create schema app", "create table app.items (id int primary key)"]);
    await createInstanceOk(rest, admin, "sqlx-pg", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    assert.equal(await syncInstance(app.db, testSecrets(), "sqlx-pg"), "OK");
    if (mysqlAvailable) {
      my = await mysql.createConnection({ ...MYSQL, multipleStatements: true });
      await my.query(`create database ${myDatabase}; create table ${myDatabase}.t (id int primary key)`);
      await createInstanceOk(rest, admin, "sqlx-my", { engine: "MYSQL", environment: "environments/test", dataSources: [mysqlAdminSource()] });
      assert.equal(await syncInstance(app.db, testSecrets(), "sqlx-my"), "OK");
    }
    await makeUser(app.db, "mary");
  });
  after(async () => {
    await app?.close();
    await target?.drop();
    if (my) {
      await my.query(`drop database if exists ${myDatabase}`);
      await my.end();
    }
  });

  it("is refused while database_change_mode is PIPELINE (the default), before anything reaches the target", async () => {
    const reply = await execute(pgName(), "insert into items values (100, 'nope')");
    assert.deepEqual(refusal(reply).slice(0, 2), [400, "failed_precondition"]);
    assert.match(reply.body.message, /database_change_mode is PIPELINE.*set it to EDITOR/);
    assert.deepEqual(await pgRows("select * from items where id = 100"), []);
    assert.equal((await lastAudit()).status_code, "failed_precondition");
    assert.deepEqual(await history(), []);
  });

  it("needs bb.sql.admin on the database's project, which a project owner does not hold", async () => {
    await mergeWorkspaceProfile(app, { databaseChangeMode: "EDITOR" });
    const owner = { role: "roles/projectOwner", members: ["user:login_id=mary"] };
    assert.equal((await rest("POST", "/v1/projects/default:setIamPolicy", { token: admin, body: { policy: { bindings: [owner] } } })).status, 200);
    const reply = await execute(pgName(), "insert into items values (100, 'nope')", {}, await signIn(rest, "mary"));
    assert.deepEqual(refusal(reply), [403, "permission_denied", "permission bb.sql.admin required on projects/default"]);
  });

  it("runs statement by statement on PostgreSQL, with the rows each changed and its duration; audited and kept in the history", async () => {
    const script = "insert into items values (1, 'a'), (2, 'b');\nupdate items set name = 'c' where id = 2;\ndelete from items where id = 1;\nselect * from items;";
    const reply = await execute(pgName(), script);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const statements = reply.body.statements as Json[];
    assert.deepEqual(statements.map((s) => [s.statement, s.rowsAffected, s.error]), [
      ["insert into items values (1, 'a'), (2, 'b')", "2", undefined],
      ["update items set name = 'c' where id = 2", "1", undefined],
      ["delete from items where id = 1", "1", undefined],
      ["select * from items", undefined, undefined],
    ]);
    assert.ok(statements.every((s) => /^\d+(\.\d+)?s$/.test(s.duration)), JSON.stringify(statements));
    assert.deepEqual(await pgRows("select id, name from items order by id"), [{ id: 2, name: "c" }]);
    const audit = await lastAudit();
    assert.deepEqual([audit.status_code, audit.resource, JSON.parse(audit.request).statement], ["ok", pgName(), script]);
    assert.deepEqual([audit.detail.database, audit.detail.rowsAffected, typeof audit.detail.durationMs], [pgName(), 4, "number"]);
    const [entry] = await history();
    assert.deepEqual([entry?.creator, entry?.database, entry?.statement, entry?.rowCount, entry?.error], ["users/admin", pgName(), script, "4", undefined]);
  });

  it("ends at the first failing statement; on PostgreSQL the script's transaction rolls back what came before", async () => {
    const reply = await execute(pgName(), "insert into items values (10, 'x');\ninsert into items values (10, 'again');\ninsert into items values (11, 'y');");
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const statements = reply.body.statements as Json[];
    assert.equal(statements.length, 2);
    assert.equal(statements[0]!.error, undefined);
    assert.match(statements[1]!.error, /duplicate key value.*\(the script ran in one transaction, which was rolled back: none of its statements was applied\)/);
    assert.deepEqual(await pgRows("select id from items where id >= 10"), []);
    const [entry] = await history();
    assert.deepEqual([entry?.rowCount, /duplicate key/.test(entry?.error)], [undefined, true]);
  });

  it("runs in the given schema on PostgreSQL", async () => {
    assert.equal((await execute(pgName(), "insert into items values (5)", { schema: "app" })).status, 200);
    assert.deepEqual(await pgRows("select id from app.items"), [{ id: 5 }]);
    assert.deepEqual(await pgRows("select id from public.items where id = 5"), []);
  });

  it("is refused during the emergency pause, with its reason", async () => {
    await setSetting("EMERGENCY_PAUSE", { emergencyPause: { enabled: true, reason: "incident 42" } });
    try {
      await eventually(async () => (await app.settings.get("EMERGENCY_PAUSE"))?.["enabled"] === true);
      const reply = await execute(pgName(), "insert into items values (200, 'paused')");
      assert.deepEqual(refusal(reply), [400, "failed_precondition", "changes are frozen by the emergency pause: incident 42"]);
      assert.deepEqual(await pgRows("select id from items where id = 200"), []);
    } finally {
      await setSetting("EMERGENCY_PAUSE", { emergencyPause: { enabled: false } });
      await eventually(async () => (await app.settings.get("EMERGENCY_PAUSE"))?.["enabled"] === false);
    }
  });

  it("runs statement by statement on MariaDB/MySQL: a failure keeps what was applied", { skip: noMysql }, async () => {
    const reply = await execute(myName, "insert into t values (1), (2);\ninsert into t values (2);\ninsert into t values (3);");
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const statements = reply.body.statements as Json[];
    assert.deepEqual(statements.map((s) => [s.rowsAffected, /Duplicate entry/.test(s.error ?? "")]), [["2", false], [undefined, true]]);
    assert.doesNotMatch(statements[1]!.error, /rolled back/);
    assert.deepEqual(await myRows(`select id from ${myDatabase}.t order by id`), [{ id: 1 }, { id: 2 }]);
    const unknown = await execute(myName, "insert into t values (4)", { schema: "no_such_schema" });
    assert.deepEqual(refusal(unknown), [400, "invalid_argument", "schema \"no_such_schema\": Unknown database 'no_such_schema'"]);
  });

  it("query_timeout cancels the script with deadline_exceeded, recorded in the audit log and the history", async () => {
    await mergeWorkspaceProfile(app, { queryTimeout: "1s" });
    try {
      const started = performance.now();
      const reply = await execute(pgName(), "insert into items values (300, 'slow');\nselect pg_sleep(10);");
      assert.ok(performance.now() - started < 5_000);
      assert.deepEqual(refusal(reply).slice(0, 2), [504, "deadline_exceeded"]);
      assert.match(reply.body.message, /longer than query_timeout \(1s\).*nothing of it was applied/);
      assert.deepEqual(await pgRows("select id from items where id = 300"), []);
      const audit = await lastAudit();
      assert.deepEqual([audit.status_code, audit.detail.rowsAffected], ["deadline_exceeded", 0]);
      assert.match((await history())[0]?.error, /query_timeout/);
      if (!mysqlAvailable) return;
      const mysqlReply = await execute(myName, "insert into t values (30);\nselect benchmark(10000000000, md5('x'));");
      assert.deepEqual(refusal(mysqlReply).slice(0, 2), [504, "deadline_exceeded"]);
      assert.match(mysqlReply.body.message, /the 1 statement\(s\) before it were applied/);
      assert.deepEqual(await myRows(`select id from ${myDatabase}.t where id = 30`), [{ id: 30 }]);
    } finally {
      await mergeWorkspaceProfile(app, { queryTimeout: "0s" });
    }
  });

  it("a client that goes away cancels the running statement", async () => {
    const client = new AbortController();
    const body = { name: pgName(), statement: "select pg_sleep(30) /* left behind */" };
    const call = rest("POST", "/v1/sql:execute", { token: admin, body, signal: client.signal }).catch((error: Error) => error.name);
    const running = async () => (await adminQuery("select count(*)::int as n from pg_stat_activity where query like '%left behind%' and pid <> pg_backend_pid()")).rows[0].n;
    await eventually(async () => (await running()) === 1);
    client.abort();
    assert.equal(await call, "AbortError");
    await eventually(async () => (await running()) === 0, 5_000);
    await eventually(async () => /cancelled/.test((await history())[0]?.error ?? ""));
    assert.equal((await lastAudit()).status_code, "canceled");
  });
});
