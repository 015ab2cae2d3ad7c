// SQLService.Export (contract §14.1, §18.10, decision 0009) on PostgreSQL and
// MariaDB/MySQL, over REST (the file itself, attachment with a file name)
// and Connect (messages, media type and name on the first): each format read
// back by an independent reader — csv-parse, JSON.parse, the SQL replayed
// into a scratch database, the XLSX opened by SheetJS — and `limit`.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { parse } from "csv-parse/sync";
import mysql from "mysql2/promise";
import XLSX from "xlsx";
import { ExportRequest_Format, SQLService } from "../shared/gen/svc/v1/sql_service_pb.js";
import { createPgTarget, MYSQL, uniqueName } from "./helpers/instances.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";

type Json = Record<string, any>;

const PG_TABLE = "create table items (id bigint primary key, name text, amount numeric, flag boolean, at timestamptz)";
const PG_ROWS = `insert into items values (1, 'quote " and, comma', 12345678901234567890.5, true, '2024-05-06 07:08:09.5+00'),
  (2, E'line\\nbreak ünïcødé ☃', -0.5, false, null), (3, '', null, null, null), (4, null, 7.5, true, '1999-12-31 23:59:59+00')`;
const MY_TABLE = (db: string) => `create table ${db}.items (id bigint primary key, name text, amount decimal(30,1), flag boolean, at datetime(1))`;
const MY_ROWS = (db: string) => `insert into ${db}.items values (1, 'quote " and, comma', 12345678901234567890.5, true, '2024-05-06 07:08:09.5'),
  (2, 'line\\nbreak ünïcødé ☃', -0.5, false, null), (3, '', null, null, null), (4, null, 7.5, true, '1999-12-31 23:59:59')`;
const STATEMENT = "select id, name, amount, flag from items order by id";
/** The rows as text, the way every format prints them; null for NULL. */
const TEXT_ROWS = [
  ["1", 'quote " and, comma', "12345678901234567890.5", "true"],
  ["2", "line\nbreak ünïcødé ☃", "-0.5", "false"],
  ["3", "", null, null],
  ["4", null, "7.5", "true"],
];

describe("SQL Editor export formats", () => {
  let t: SqlTargets;
  const download = (body: Json) =>
    fetch(`${t.app.baseUrl}/v1/sql:export`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${t.admin}` }, body: JSON.stringify(body) });
  const fileOf = async (name: string, format: string, extra: Json = {}) => {
    const res = await download({ name, statement: STATEMENT, format, ...extra });
    assert.equal(res.status, 200, await res.clone().text());
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const targets = () => [{ engine: "PostgreSQL", name: t.pg.name, database: t.pg.database }, { engine: "MySQL", name: t.my!.name, database: t.my!.database }];

  before(async () => {
    t = await startSqlTargets([PG_TABLE, PG_ROWS], (db) => [MY_TABLE(db), MY_ROWS(db)]);
    assert.ok(t.my, "a MariaDB answers at 127.0.0.1:3306");
  });
  after(() => t?.close());

  it("answers CSV as an attachment named after the database and the time, which csv-parse reads back", async () => {
    for (const target of targets()) {
      const { res, bytes } = await fileOf(target.name, "CSV");
      assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8");
      assert.match(res.headers.get("content-disposition") ?? "", new RegExp(`^attachment; filename="${target.database}-\\d{8}T\\d{6}Z\\.csv"$`));
      const rows = parse(bytes, { cast: (value, context) => (value === "" && !context.quoting ? null : value) }) as unknown[][];
      assert.deepEqual(rows, [["id", "name", "amount", "flag"], ...TEXT_ROWS.map((r) => (target.engine === "MySQL" ? mysqlFlags(r) : r))], target.engine);
    }
  });

  it("answers JSON, one array of row objects JSON.parse reads back with integers exact", async () => {
    for (const target of targets()) {
      const { res, bytes } = await fileOf(target.name, "JSON");
      assert.equal(res.headers.get("content-type"), "application/json");
      const rows = JSON.parse(bytes.toString("utf8"), (_key, value, context?: { source?: string }) => (typeof value === "number" ? context?.source : value)) as Json[];
      assert.deepEqual(rows.map((r) => [r.id, r.name]), TEXT_ROWS.map((r) => [r[0], r[1]]), target.engine);
    }
  });

  it("answers SQL INSERTs that give back the rows when replayed into a scratch database", async () => {
    const pgScratch = await createPgTarget([PG_TABLE]);
    try {
      const { bytes } = await fileOf(t.pg.name, "SQL", { statement: "select * from items" });
      await pgScratch.query(bytes.toString("utf8"));
      const rows = async (query: (sql: string) => Promise<Json[]>) => (await query("select items::text as row from items order by id")).map((r) => r.row);
      assert.deepEqual(await rows(async (sql) => (await pgScratch.query(sql)).rows), await rows(t.pg.query));
    } finally {
      await pgScratch.drop();
    }
    const scratch = uniqueName("sqlx_replay");
    const my = await mysql.createConnection({ ...MYSQL, multipleStatements: true });
    try {
      await my.query(`create database ${scratch}; ${MY_TABLE(scratch)}; use ${scratch}`);
      const { bytes } = await fileOf(t.my!.name, "SQL", { statement: "select * from items" });
      await my.query(bytes.toString("utf8"));
      const [replayed] = await my.query(`select * from ${scratch}.items order by id`);
      assert.deepEqual(replayed, await t.my!.query("select * from items order by id"));
    } finally {
      await my.query(`drop database if exists ${scratch}`);
      await my.end();
    }
  });

  it("answers an XLSX workbook that SheetJS opens, numbers and booleans typed", async () => {
    for (const target of targets()) {
      const { res, bytes } = await fileOf(target.name, "XLSX");
      assert.equal(res.headers.get("content-type"), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
      assert.match(res.headers.get("content-disposition") ?? "", /\.xlsx"$/);
      const book = XLSX.read(bytes, { type: "buffer" });
      const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1, raw: true, defval: null });
      assert.deepEqual(rows[0], ["id", "name", "amount", "flag"]);
      assert.deepEqual(rows.slice(1).map((r) => [r[0], r[1]]), [[1, 'quote " and, comma'], [2, "line\nbreak ünïcødé ☃"], [3, ""], [4, null]], target.engine);
      assert.equal(rows[1]![3], target.engine === "MySQL" ? 1 : true);
    }
  });

  it("keeps `limit` rows, and refuses a negative limit or a missing format", async () => {
    const { bytes } = await fileOf(t.pg.name, "CSV", { limit: 2 });
    assert.equal(parse(bytes).length, 3, "the header and two rows");
    assert.equal(parse((await fileOf(t.my!.name, "CSV", { limit: "3" })).bytes).length, 4);
    for (const [body, message] of [[{ format: "CSV", limit: -1 }, /limit must be 0 \(every row\) or more, got -1/], [{}, /format is required: CSV, JSON, SQL or XLSX/]] as const) {
      const res = await download({ name: t.pg.name, statement: STATEMENT, ...body });
      const error = (await res.json()) as Json;
      assert.deepEqual([res.status, error.code], [400, "invalid_argument"]);
      assert.match(error.message, message);
    }
  });

  it("streams the same file over Connect, the media type and name on the first message only", async () => {
    const client = createClient(SQLService, createConnectTransport({ baseUrl: t.app.baseUrl, httpVersion: "1.1" }));
    const messages = [];
    const stream = client.export({ name: t.pg.name, statement: STATEMENT, format: ExportRequest_Format.CSV }, { headers: { authorization: `Bearer ${t.admin}` } });
    for await (const message of stream) messages.push(message);
    assert.equal(messages[0]!.contentType, "text/csv; charset=utf-8");
    assert.match(messages[0]!.filename, new RegExp(`^${t.pg.database}-\\d{8}T\\d{6}Z\\.csv$`));
    assert.ok(messages.slice(1).every((m) => m.contentType === "" && m.filename === ""));
    const content = Buffer.concat(messages.map((m) => m.content));
    assert.deepEqual(content, (await fileOf(t.pg.name, "CSV")).bytes);
  });
});

/** MySQL's BOOLEAN is TINYINT(1): its values print as 1 and 0. */
function mysqlFlags(row: (string | null)[]): (string | null)[] {
  return row.map((value, i) => (i === 3 && value !== null ? (value === "true" ? "1" : "0") : value));
}
