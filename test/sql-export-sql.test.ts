// The SQL Editor's SQL export (contract §18.10): rows read from a real
// target through the SQL Editor's read session become INSERT statements of
// the source engine; replayed into another database's table of the same
// shape, they give back the same values — quotes, backslashes, line breaks,
// unicode, NULL against the empty string, bytes, numerics beyond a double,
// integers at their extremes, timestamps with zones, special floats. The
// statement's single source table names the INSERTs' table.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import mysql from "mysql2/promise";
import { exportTableName } from "../shared/sql-editor/export/export-table.ts";
import { readStatements } from "../shared/sql-editor/guard/read-only-guard.ts";
import type { Engine } from "../shared/inventory/index.ts";
import type { Column, Row } from "../shared/sql-editor/cells.ts";
import { ReadConnections } from "../shared/sql-editor/session/read-connections.ts";
import { withReadSession } from "../shared/sql-editor/session/read-session.ts";
import type { ConnectionConfig } from "../shared/inventory/engine/target.ts";
import { exportBytes } from "./helpers/export-cells.ts";
import { connectMysql, createPgTarget, MYSQL, pgServerConnection, uniqueName } from "./helpers/instances.ts";

/** The INSERTs' table for a statement, from the tree the read-only guard parsed (as Export does). */
async function tableOf(engine: Engine, statement: string): Promise<string[]> {
  const [read] = await readStatements(engine, statement);
  return exportTableName(engine, read!.tree);
}

/** The statement's columns and rows, read as an export reads them. */
async function readRows(config: ConnectionConfig, database: string, statement: string): Promise<{ columns: Column[]; rows: Row[] }> {
  const read = { columns: [] as Column[], rows: [] as Row[] };
  const connections = new ReadConnections();
  const options = { schema: "", timeoutMs: undefined, signal: new AbortController().signal };
  await withReadSession({ connections, engine: config.engine, config, database }, options, async (session) => {
    const { error } = await session.read(statement, { columns: (c) => void (read.columns = c), rows: (batch) => (read.rows.push(...batch), true) }, 2);
    assert.equal(error, "");
  });
  await connections.close();
  return read;
}

const PG_TABLE = `create table src (id bigint primary key, t text, n numeric, flag boolean, f float8, b bytea, tz timestamptz, ts timestamp,
  j jsonb, arr int[], d date, iv interval)`;
const PG_ROWS = `insert into src values
  (9223372036854775807, 'quote '' " and, comma \\ backslash', 12345678901234567890.123456789, true, 1.5, '\\x0001ff',
   '2024-05-06 07:08:09.123456+05:30', '2024-05-06 07:08:09.5', '{"a": [1, "x"]}', '{1,2,NULL}', '2024-02-29', '1 day 02:03:04'),
  (-9223372036854775808, E'line\\nbreak\\r\\nünïcødé ☃ 😀\\ttab', -0.5, false, 'NaN', '\\x', '-infinity', '0001-01-01 00:00:00', 'null', '{}',
   'infinity', '-1 mons'),
  (3, '', null, null, '-Infinity', null, null, null, null, null, null, null),
  (4, null, 0, true, 1e-300, '\\xdeadbeef', '1999-12-31 23:59:59.999999+00', null, '"str"', null, null, null)`;

describe("SQL export on PostgreSQL", () => {
  let source: Awaited<ReturnType<typeof createPgTarget>>;
  let replay: Awaited<ReturnType<typeof createPgTarget>>;
  before(async () => {
    source = await createPgTarget([PG_TABLE, PG_ROWS]);
    replay = await createPgTarget([PG_TABLE]);
  });
  after(async () => {
    await source.drop();
    await replay.drop();
  });

  it("writes INSERTs that give back every value when replayed", async () => {
    const statement = "select * from src order by id";
    const { columns, rows } = await readRows(pgServerConnection(), source.name, statement);
    const table = await tableOf("POSTGRES", statement);
    const file = await exportBytes("SQL", columns, rows, { engine: "POSTGRES", table });
    assert.deepEqual([file.contentType, file.extension, file.rows, table], ["application/sql", "sql", 4, ["src"]]);
    assert.match(file.bytes.toString("utf8"), /^INSERT INTO "src" \("id", "t", "n", "flag", "f", "b", "tz", "ts", "j", "arr", "d", "iv"\) VALUES \(-9223372036854775808, /);
    await replay.query(file.bytes.toString("utf8"));
    const all = async (target: typeof source) => (await target.query("select src::text as row from src order by id")).rows.map((r) => r.row);
    assert.deepEqual(await all(replay), await all(source));
  });
});

const MY_TABLE = `create table src (id bigint unsigned primary key, t text, n decimal(38,10), flag tinyint(1), f double, b blob,
  ts timestamp(6) null, dt datetime(6), j json, e enum('a','b'), bits bit(8)) default charset utf8mb4`;
const MY_ROWS = `insert into src values
  (18446744073709551615, 'quote '' " and, comma \\\\ backslash', 1234567890123456789012345678.0123456789, 1, 1.5, X'0001FF',
   '2024-05-06 07:08:09.123456', '2024-05-06 07:08:09.5', '{"a": [1, "x"]}', 'a', b'10101010'),
  (2, 'line\\nbreak\\r\\nünïcødé ☃ 😀\\0nul', -0.5, 0, -1e-300, X'', '1999-12-31 23:59:59.999999', '0001-01-01 00:00:00', 'null', 'b', b'0'),
  (3, '', null, null, null, null, null, null, null, null, null)`;

describe("SQL export on MariaDB/MySQL", async () => {
  const probe = await connectMysql();
  const [sourceDb, replayDb] = [uniqueName("export_src"), uniqueName("export_replay")];
  const config: ConnectionConfig = { ...pgServerConnection(), engine: "MYSQL", host: MYSQL.host, port: MYSQL.port, username: MYSQL.user, password: MYSQL.password };
  let my: mysql.Connection | undefined;
  before(async () => {
    await probe?.end();
    if (!probe) return;
    my = await mysql.createConnection({ ...MYSQL, multipleStatements: true, dateStrings: true, supportBigNumbers: true, bigNumberStrings: true, charset: "utf8mb4" });
    await my.query(`create database ${sourceDb}; create database ${replayDb}; use ${sourceDb}; ${MY_TABLE}; ${MY_ROWS}; use ${replayDb}; ${MY_TABLE}`);
  });
  after(async () => {
    await my?.query(`drop database if exists ${sourceDb}; drop database if exists ${replayDb}`);
    await my?.end();
  });

  it("writes INSERTs that give back every value when replayed", { skip: !probe && "no MySQL at 127.0.0.1:3306" }, async () => {
    const statement = `select * from ${sourceDb}.src order by id`;
    const { columns, rows } = await readRows(config, sourceDb, statement);
    const table = await tableOf("MYSQL", statement);
    assert.deepEqual(table, [sourceDb, "src"]);
    const file = await exportBytes("SQL", columns, rows, { engine: "MYSQL", table: ["src"] });
    assert.match(file.bytes.toString("utf8"), /^SET time_zone = '\+00:00';\nINSERT INTO `src` \(`id`, `t`, `n`, `flag`, `f`, `b`, `ts`, `dt`, `j`, `e`, `bits`\) VALUES \(2, /);
    await my!.query(`use ${replayDb}; set time_zone = '+05:00'; ${file.bytes.toString("utf8")}`); // the file's own SET makes the zone UTC
    const all = async (database: string) => ((await my!.query(`set time_zone = '+00:00'; select * from ${database}.src order by id`))[0] as unknown[][])[1]!;
    assert.equal((await all(sourceDb)).length, 3);
    assert.deepEqual(await all(replayDb), await all(sourceDb));
  });
});

describe("the SQL export's table", () => {
  it("is the statement's single source table, else export", async () => {
    const cases: [Engine, string, string[]][] = [
      ["POSTGRES", "select * from public.orders o where id > 1", ["public", "orders"]],
      ["POSTGRES", 'select id from "Odd Name"', ["Odd Name"]],
      ["POSTGRES", "select * from a join b on true", ["export"]],
      ["POSTGRES", "with x as (select 1) select * from x", ["export"]],
      ["POSTGRES", "select 1 union select 2", ["export"]],
      ["POSTGRES", "select * from (select 1) s", ["export"]],
      ["POSTGRES", "show search_path", ["export"]],
      ["MYSQL", "select * from shop.orders", ["shop", "orders"]],
      ["MYSQL", "select * from t1, t2", ["export"]],
      ["MYSQL", "select now()", ["export"]],
      ["MYSQL", "show variables like 'x'", ["export"]],
    ];
    for (const [engine, statement, expected] of cases) assert.deepEqual(await tableOf(engine, statement), expected, statement);
  });
});
