// SQL Editor Query (contract §14.2) on real targets: each kind of value as a
// RowValue, per engine, over REST and Connect; column names and type names;
// one result per statement, a refused statement ending the script; the
// schema; the READ_ONLY data source chosen when the instance has one.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { SQLService } from "../shared/gen/svc/v1/sql_service_pb.js";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";

type Json = Record<string, any>;

describe("SQL Editor query values", () => {
  let t: SqlTargets;
  const only = (reply: { status: number; body: Json }) => {
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.results as any[];
  };

  before(async () => {
    t = await startSqlTargets(["create schema app", "create table app.things (id int primary key, label text)", "insert into app.things values (1, 'in app')"], (db) => [
      `create table ${db}.things (id int primary key, label text)`,
      `insert into ${db}.things values (1, 'mine')`,
      `create table ${db}.stamps (ts timestamp(6) null)`,
      `insert into ${db}.stamps values (from_unixtime(1714979289.123456))`,
    ]);
  });
  after(() => t?.close());

  it("answers each PostgreSQL type as its RowValue, with upper-case type names", async () => {
    const statement = `select null::text as n, true as b, 42::int4 as i4, 9007199254740993::int8 as i8, 1.5::float8 as f, 12345678901234567890.123::numeric as num,
      'héllo'::text as t, '\\x00ff'::bytea as by, '2024-05-06 07:08:09.123456+05:30'::timestamptz as tz, '2024-05-06 07:08:09.5'::timestamp as ts,
      '{"a": [1, 2]}'::jsonb as j, array[1,2]::int[] as arr, 'infinity'::timestamp as inf, '2024-05-06'::date as d`;
    const [result] = only(await t.call("query", { name: t.pg.name, statement }));
    // timestamptz is printed in the session's zone, the server's default here.
    const offset = (await t.pg.query("select extract(timezone from now())::int as offset"))[0]!.offset;
    assert.deepEqual(result.columnTypeNames, ["TEXT", "BOOL", "INT4", "INT8", "FLOAT8", "NUMERIC", "TEXT", "BYTEA", "TIMESTAMPTZ", "TIMESTAMP", "JSONB", "_INT4", "TIMESTAMP", "DATE"]);
    assert.deepEqual(result.rows[0].values, [
      { nullValue: null },
      { boolValue: true },
      { int64Value: "42" },
      { int64Value: "9007199254740993" },
      { doubleValue: 1.5 },
      { stringValue: "12345678901234567890.123" },
      { stringValue: "héllo" },
      { bytesValue: "AP8=" },
      { timestampValue: { value: "2024-05-06T01:38:09.123456Z", offsetSeconds: offset } },
      { timestampValue: { value: "2024-05-06T07:08:09.500Z" } },
      { stringValue: '{"a": [1, 2]}' },
      { stringValue: "{1,2}" },
      { stringValue: "infinity" },
      { stringValue: "2024-05-06" },
    ]);
    assert.deepEqual([result.rowsCount, result.truncated ?? false, result.error ?? ""], ["1", false, ""]);
    assert.match(result.latency, /^\d+(\.\d+)?s$/);
  });

  it("answers each MySQL/MariaDB type as its RowValue; TIMESTAMP is read in UTC and keeps its zone", async (c) => {
    if (!t.my) return c.skip("no MySQL at 127.0.0.1:3306");
    const statement = `select null as n, 42 as i, cast(-9223372036854775808 as signed) as big, cast(18446744073709551615 as unsigned) as ubig, 1.5e0 as f,
      12.30 as d, 'héllo' as t, x'00ff' as b, cast('2024-05-06 07:08:09.123456' as datetime(6)) as dt, ts, cast('2024-05-06' as date) as dd from stamps`;
    const [result] = only(await t.call("query", { name: t.my.name, statement }));
    assert.deepEqual(result.columnTypeNames, ["NULL", "INT", "BIGINT", "BIGINT UNSIGNED", "DOUBLE", "DECIMAL", "VARCHAR", "VARBINARY", "DATETIME", "TIMESTAMP", "DATE"]);
    assert.deepEqual(result.rows[0].values, [
      { nullValue: null },
      { int64Value: "42" },
      { int64Value: "-9223372036854775808" },
      { stringValue: "18446744073709551615" },
      { doubleValue: 1.5 },
      { stringValue: "12.30" },
      { stringValue: "héllo" },
      { bytesValue: "AP8=" },
      { timestampValue: { value: "2024-05-06T07:08:09.123456Z" } },
      { timestampValue: { value: "2024-05-06T07:08:09.123456Z", offsetSeconds: 0 } },
      { stringValue: "2024-05-06" },
    ]);
    const [json] = only(await t.call("query", { name: t.my.name, statement: "select json_object('a', 1) as j" }));
    assert.deepEqual([json.columnTypeNames, json.rows[0].values], [["JSON"], [{ stringValue: '{"a": 1}' }]]);
  });

  it("answers the same over Connect (binary): int64 as text, bytes, timestamps with their offset", async () => {
    const transport = createConnectTransport({ baseUrl: t.app.baseUrl, httpVersion: "1.1", useBinaryFormat: true, interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${t.admin}`), next(req))] });
    const reply = await createClient(SQLService, transport).query({ name: t.pg.name, statement: "select 9007199254740993::int8 as i8, '\\x0102'::bytea as b, '2024-01-02 03:04:05.000001+00'::timestamptz as tz" });
    const values = reply.results[0]!.rows[0]!.values.map((v) => v.kind);
    assert.deepEqual(values[0], { case: "int64Value", value: "9007199254740993" });
    assert.deepEqual(values[1], { case: "bytesValue", value: new Uint8Array([1, 2]) });
    assert.equal(values[2]!.case, "timestampValue");
    const stamp = values[2]!.value as { value: { seconds: bigint; nanos: number } };
    assert.deepEqual([stamp.value.seconds, stamp.value.nanos], [BigInt(Date.UTC(2024, 0, 2, 3, 4, 5) / 1000), 1000]);
  });

  it("answers one result per statement; a statement the target refuses ends the script with its message", async () => {
    const results = only(await t.call("query", { name: t.pg.name, statement: "select 1 as a; select * from no_such_table; select 3 as c" }));
    assert.equal(results.length, 2);
    assert.deepEqual(results[0].rows[0].values, [{ int64Value: "1" }]);
    assert.equal(results[1].statement, "select * from no_such_table");
    assert.match(results[1].error, /relation "no_such_table" does not exist/);
  });

  it("runs in the schema asked for: PostgreSQL's search path, MySQL's default database", async (c) => {
    const [inApp] = only(await t.call("query", { name: t.pg.name, statement: "select label from things", schema: "app" }));
    assert.deepEqual(inApp.rows[0].values, [{ stringValue: "in app" }]);
    const [odd] = only(await t.call("query", { name: t.pg.name, statement: "select current_schemas(false)::text as s", schema: 'we"ird' }));
    assert.deepEqual(odd.rows[0].values, [{ stringValue: "{}" }]); // quoted, so not a syntax error: a schema that does not exist
    if (!t.my) return c.skip("no MySQL at 127.0.0.1:3306");
    const [mine] = only(await t.call("query", { name: t.my.name, statement: "select database() as db", schema: "information_schema" }));
    assert.deepEqual(mine.rows[0].values, [{ stringValue: "information_schema" }]);
    const unknown = await t.call("query", { name: t.my.name, statement: "select 1", schema: "no_such_db" });
    assert.deepEqual([unknown.status, unknown.body.code], [400, "invalid_argument"]);
  });

  it("reads through the instance's READ_ONLY data source when it has one, or the one named", async () => {
    const role = `ro_${Date.now()}`;
    await t.pg.query(`create role ${role} login`);
    await t.pg.query(`grant select on all tables in schema app to ${role}; grant usage on schema app to ${role}`);
    try {
      const instance = t.pg.name.split("/")[1];
      const get = await t.rest<Json>("GET", `/v1/instances/${instance}`, { token: t.admin });
      const readOnly = { ...get.body.dataSources[0], id: "ro", type: "READ_ONLY", username: role, password: "" };
      const patched = await t.rest<Json>("PATCH", `/v1/instances/${instance}?updateMask=data_sources`, {
        token: t.admin,
        body: { name: `instances/${instance}`, dataSources: [get.body.dataSources[0], readOnly] },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const user = async (extra: Json) => only(await t.call("query", { name: t.pg.name, statement: "select current_user as u", ...extra }))[0].rows[0].values[0].stringValue;
      assert.equal(await user({}), role);
      assert.equal(await user({ dataSourceId: get.body.dataSources[0].id }), "postgres");
      const unknown = await t.call("query", { name: t.pg.name, statement: "select 1", dataSourceId: "nope" });
      assert.deepEqual([unknown.status, unknown.body.code], [400, "invalid_argument"]);
      assert.match(unknown.body.message, /has no data source "nope"/);
    } finally {
      await t.pg.query(`drop owned by ${role}; drop role ${role}`).catch(() => undefined);
    }
  });
});
