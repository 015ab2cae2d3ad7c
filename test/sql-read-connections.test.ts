// The SQL Editor's PostgreSQL connections kept between reads
// (docs/decisions/0123): a second Query runs on the first one's backend,
// nothing a call leaves in its session reaches the next (settings, schema,
// prepared statements, session locks; after a refused statement too), an
// interrupted call's connection is closed rather than kept, a changed data
// source is not served by the old connections, and closing the server leaves
// no backend on the target.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eventually, pgAdminSource } from "./helpers/instances.ts";
import { countingProxy, startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";

type Json = Record<string, any>;

const SETUP = [
  "create schema other",
  "create table other.marker (here text)",
  // What a read can leave in its session that a rollback does not undo.
  "create function leave_state() returns int language plpgsql as $$ begin perform pg_advisory_lock(42); execute 'prepare kept as select 1'; return 1; end $$",
  "create function leave_state_and_fail() returns int language plpgsql as $$ begin perform leave_state(); raise exception 'failed on purpose'; end $$",
];

const LEFT_BEHIND =
  "select pg_backend_pid() as pid, (select count(*) from pg_prepared_statements) + (select count(*) from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()) as left_behind";

describe("SQL Editor reads keep their PostgreSQL connection", () => {
  let t: SqlTargets;
  /** The call's first result, whose first row's values are answered as text. */
  const firstRow = async (statement: string, extra: Json = {}) => {
    const reply = await t.call("query", { name: t.pg.name, statement, ...extra });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const result = reply.body.results[0];
    assert.equal(result.error ?? "", "", statement);
    return result.rows[0].values.map((value: Json) => String(Object.values(value)[0]));
  };
  const backendPid = async () => (await firstRow("select pg_backend_pid()"))[0] as string;
  const backendAlive = async (pid: string) => (await t.pg.query(`select count(*)::int as n from pg_stat_activity where pid = ${Number(pid)}`))[0]!.n === 1;

  before(async () => {
    t = await startSqlTargets(SETUP, () => []);
  });
  after(() => t?.close());

  it("runs a second Query on the first one's backend, without a new connection", async () => {
    const pid = await backendPid();
    const connections = t.pg.proxy.connections;
    assert.equal(await backendPid(), pid);
    assert.equal(await backendPid(), pid);
    assert.equal(t.pg.proxy.connections, connections, "no connection was opened");
  });

  it("starts each call in its own search path and settings, whatever the previous call ran with", async () => {
    const pid = await backendPid();
    assert.deepEqual(await firstRow("select current_setting('search_path'), pg_backend_pid()", { schema: "other" }), ["other", pid]);
    assert.deepEqual(await firstRow("select current_setting('search_path'), pg_backend_pid()"), ['"$user", public', pid]);
    const unqualified = await t.call("query", { name: t.pg.name, statement: "select * from marker" });
    assert.match(unqualified.body.results[0].error, /relation "marker" does not exist/);
    assert.deepEqual(await firstRow("select current_setting('statement_timeout'), current_setting('transaction_read_only')"), ["0", "on"]);
  });

  it("resets what a call left in its session (prepared statements, session locks), after a refused statement too", async () => {
    const pid = await backendPid();
    assert.deepEqual(await firstRow("select leave_state()"), ["1"]);
    assert.deepEqual(await firstRow(LEFT_BEHIND), [pid, "0"]);
    const failed = await t.call("query", { name: t.pg.name, statement: "select leave_state_and_fail()" });
    assert.match(failed.body.results[0].error, /failed on purpose/);
    assert.deepEqual(await firstRow(LEFT_BEHIND), [pid, "0"], "the refused call's connection was reset and kept");
  });

  it("closes the connection of a call past query_timeout instead of keeping it", async () => {
    const pid = await backendPid();
    await mergeWorkspaceProfile(t.app, { queryTimeout: "1s" });
    try {
      const slow = await t.call("query", { name: t.pg.name, statement: "select pg_sleep(30)" });
      assert.deepEqual([slow.status, slow.body.code], [504, "deadline_exceeded"]);
    } finally {
      await mergeWorkspaceProfile(t.app, { queryTimeout: "0s" });
    }
    await eventually(async () => !(await backendAlive(pid)), 10_000);
    assert.notEqual(await backendPid(), pid);
  });

  it("closes the connection of a call the client left instead of keeping it", async () => {
    const pid = await backendPid();
    const controller = new AbortController();
    const call = t.call("query", { name: t.pg.name, statement: "select pg_sleep(60) as reuse_cancel_marker" }, t.admin, controller.signal).catch(() => undefined);
    await eventually(async () => (await t.pg.query(`select count(*)::int as n from pg_stat_activity where pid = ${Number(pid)} and state = 'active'`))[0]!.n === 1, 10_000);
    controller.abort();
    await call;
    await eventually(async () => !(await backendAlive(pid)), 10_000);
    assert.notEqual(await backendPid(), pid);
  });

  it("stops using the old connections once the instance's data source changes", async () => {
    const pid = await backendPid();
    const moved = await countingProxy(Number(pgAdminSource().port));
    try {
      const instance = t.pg.name.split("/")[1];
      const get = await t.rest<Json>("GET", `/v1/instances/${instance}`, { token: t.admin });
      const patched = await t.rest<Json>("PATCH", `/v1/instances/${instance}?updateMask=data_sources`, {
        token: t.admin,
        body: { name: `instances/${instance}`, dataSources: [{ ...get.body.dataSources[0], port: String(moved.port) }] },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const checked = moved.connections; // the update tries the data source
      const after = await backendPid();
      assert.notEqual(after, pid);
      assert.equal(moved.connections, checked + 1, "the read went through the changed data source");
      assert.equal(await backendPid(), after, "and keeps its new connection");
    } finally {
      await moved.close();
    }
  });
});

describe("closing the server", () => {
  it("leaves no backend of the SQL Editor on the target", async () => {
    const t = await startSqlTargets([], () => []);
    try {
      const backends = async () =>
        (await t.pg.query(`select count(*)::int as n from pg_stat_activity where datname = '${t.pg.database}' and application_name = 'change-audit'`))[0]!.n as number;
      const reply = await t.call("query", { name: t.pg.name, statement: "select 1" });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(t.app.readConnections.idleCount, 1);
      assert.equal(await backends(), 1, "the connection is kept");
      await t.app.close();
      await eventually(async () => (await backends()) === 0, 10_000);
    } finally {
      await t.close();
    }
  });
});

