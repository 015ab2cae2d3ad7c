// Query's bounds (contract §14.1, §14.4, §18.8): the row limit (default 1000,
// at most 100000, beyond refused) with truncated; sql_result_size over the
// call; query_timeout as the server's statement timeout (deadline_exceeded,
// and the statement is gone from the target); a client that goes away
// cancels the statement on the target.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eventually } from "./helpers/instances.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";

describe("SQL Editor query limits", () => {
  let t: SqlTargets;
  const results = async (body: Record<string, unknown>, name = t.pg.name) => {
    const reply = await t.call("query", { name, ...body });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.results as any[];
  };
  const pgRunning = async (marker: string) =>
    (await t.pg.query(`select count(*)::int as n from pg_stat_activity where query like '%${marker}%' and pid <> pg_backend_pid()`))[0]!.n as number;
  const myRunning = async (marker: string) =>
    (await t.my!.query(`select count(*) as n from information_schema.processlist where info like '%${marker}%' and id <> connection_id()`))[0]!.n as number;

  before(async () => {
    t = await startSqlTargets(["create table big as select g as id, repeat('x', 1000) as pad from generate_series(1, 3000) g"], (db) => [
      `create table ${db}.big (id int, pad text)`,
      `insert into ${db}.big select seq, repeat('x', 1000) from seq_1_to_3000`,
    ]);
  });
  after(() => t?.close());

  it("keeps 1000 rows by default and marks the result truncated; a limit keeps that many", async () => {
    const [all] = await results({ statement: "select id from big" });
    assert.deepEqual([all.rows.length, all.rowsCount, all.truncated], [1000, "1000", true]);
    const [five] = await results({ statement: "select id from big order by id", limit: 5 });
    assert.deepEqual([five.rows.length, five.truncated, five.rows.at(-1).values[0].int64Value], [5, true, "5"]);
    const [exact] = await results({ statement: "select id from big where id <= 7", limit: 7 });
    assert.deepEqual([exact.rows.length, exact.truncated ?? false], [7, false]);
  });

  it("refuses a limit beyond 100000 or below 0", async () => {
    for (const limit of [100_001, -1]) {
      const reply = await t.call("query", { name: t.pg.name, statement: "select 1", limit });
      assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"]);
      assert.match(reply.body.message, /limit must be between 1 and 100000/);
    }
  });

  it("drops rows beyond sql_result_size (1 MiB here) and marks them truncated", async () => {
    await mergeWorkspaceProfile(t.app, { sqlResultSize: String(1024 * 1024) });
    try {
      const [first, second] = await results({ statement: "select pad from big; select id from big limit 3", limit: 100_000 });
      assert.ok(first.rows.length > 900 && first.rows.length < 1100, `${first.rows.length} rows of 1000 bytes in 1 MiB`);
      assert.equal(first.truncated, true);
      assert.ok(second.rows.length <= 3);
    } finally {
      await mergeWorkspaceProfile(t.app, { sqlResultSize: String(100 * 1024 * 1024) });
    }
  });

  it("answers deadline_exceeded past query_timeout, and the statement no longer runs on the target", async (c) => {
    await mergeWorkspaceProfile(t.app, { queryTimeout: "1s" });
    try {
      const pg = await t.call("query", { name: t.pg.name, statement: "select pg_sleep(30) as timeout_marker_pg" });
      assert.deepEqual([pg.status, pg.body.code], [504, "deadline_exceeded"]);
      assert.match(pg.body.message, /query timeout \(1s\)/);
      assert.equal(await pgRunning("timeout_marker_pg"), 0);
      if (!t.my) return c.skip("no MySQL at 127.0.0.1:3306");
      const started = Date.now();
      const my = await t.call("query", { name: t.my.name, statement: "select sleep(30) as timeout_marker_my" });
      assert.deepEqual([my.status, my.body.code], [504, "deadline_exceeded"]);
      assert.ok(Date.now() - started < 10_000);
      assert.equal(await myRunning("timeout_marker_my"), 0);
    } finally {
      await mergeWorkspaceProfile(t.app, { queryTimeout: "0s" });
    }
  });

  it("cancels the statement on the target when the client goes away", async (c) => {
    const targets = [{ name: t.pg.name, statement: "select pg_sleep(60) as cancel_marker_pg", running: () => pgRunning("cancel_marker_pg") }];
    if (t.my) targets.push({ name: t.my.name, statement: "select sleep(60) as cancel_marker_my", running: () => myRunning("cancel_marker_my") });
    for (const target of targets) {
      const controller = new AbortController();
      const call = t.call("query", { name: target.name, statement: target.statement }, t.admin, controller.signal).catch(() => undefined);
      await eventually(async () => (await target.running()) === 1, 10_000);
      controller.abort();
      await call;
      await eventually(async () => (await target.running()) === 0, 10_000);
    }
    if (!t.my) c.skip("no MySQL at 127.0.0.1:3306");
  });
});
