// SQLService.Export's bounds and endings (contract §14.4, §8.1, §19.1,
// decision 0009): sql_result_size ends the export with resource_exhausted
// after a whole file of whole rows — over REST the connection is then cut
// after the last byte, over Connect the error follows the last message — and
// the record keeps rows, bytes and duration, never data; a client that goes
// away stops the statement on the target; a target failing mid-file cuts the
// download and the server serves on; refusals before the first byte are
// JSON errors; bb.sql.export (projectExporter yes, projectViewer no); values
// the caller may not see are masked as in Query.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { parse } from "csv-parse/sync";
import XLSX from "xlsx";
import { ExportRequest_Format, SQLService } from "../shared/gen/svc/v1/sql_service_pb.js";
import { adminQuery } from "./helpers/db.ts";
import { eventually } from "./helpers/instances.ts";
import { patchCatalog, storeMaskingSchemes } from "./helpers/masking.ts";
import { signIn } from "./helpers/sessions.ts";
import { downloadSlowly } from "./helpers/slow-download.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";
import { makeUser } from "./helpers/users.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";

type Json = Record<string, any>;

const ROWS = 20_000;
const MIB = 1024 * 1024;
const BIG = "select id, pad from big order by id";

describe("SQL Editor export bounds, endings and access", () => {
  let t: SqlTargets;
  const tokens: Record<string, string> = {};
  const download = (body: Json, options: { token?: string; correlationId?: string; signal?: AbortSignal } = {}) =>
    fetch(`${t.app.baseUrl}/v1/sql:export`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${options.token ?? t.admin}`, ...(options.correlationId ? { "x-correlation-id": options.correlationId } : {}) },
      body: JSON.stringify(body),
      signal: options.signal,
    });
  const recordOf = async (correlationId: string) =>
    (await adminQuery(`select status_code, status_message, request, response, detail from audit_log where correlation_id = '${correlationId}'`, t.app.database.url)).rows[0] as Json;
  const slowly = (body: Json) => downloadSlowly(t.app.baseUrl, "/v1/sql:export", t.admin, body);
  const pgBackends = async (marker: string) =>
    (await t.pg.query(`select count(*)::int as n from pg_stat_activity where query like '%${marker}%' and pid <> pg_backend_pid()`))[0]!.n as number;

  before(async () => {
    t = await startSqlTargets([`create table big as select g as id, repeat('x', 200) as pad from generate_series(1, ${ROWS}) g`], (db) => [
      `create table ${db}.big (id int, pad text)`,
      `insert into ${db}.big select seq, repeat('x', 200) from seq_1_to_${ROWS}`,
    ]);
    assert.ok(t.my, "a MariaDB answers at 127.0.0.1:3306");
    const post = (path: string, body: Json) => t.rest<Json>("POST", path, { token: t.admin, body });
    assert.equal((await post("/v1/projects?projectId=sqlx", { title: "sqlx" })).status, 200);
    assert.equal((await post("/v1/databases:transfer", { databases: [t.pg.name], targetProject: "projects/sqlx" })).status, 200);
    const bind = (role: string, login: string) => ({ role: `roles/${role}`, members: [`user:login_id=${login}`] });
    for (const login of ["exporter", "viewer"]) await makeUser(t.app.db, login);
    assert.equal((await post("/v1/projects/sqlx:setIamPolicy", { policy: { bindings: [bind("projectExporter", "exporter"), bind("projectViewer", "viewer")] } })).status, 200);
    for (const login of ["exporter", "viewer"]) tokens[login] = await signIn(t.rest, login);
  });
  after(() => t?.close());

  it("ends at sql_result_size with resource_exhausted over REST, after a whole JSON file of whole rows", async () => {
    await withResultSize(MIB, async () => {
      const { status, bytes, complete } = await slowly({ name: t.pg.name, statement: BIG, format: "JSON" });
      assert.equal(status, 200, "the headers went out with the first bytes");
      assert.equal(complete, false, "the connection is cut instead of ending the body");
      const rows = JSON.parse(bytes.toString("utf8")) as Json[];
      assert.ok(rows.length > 1000 && rows.length < ROWS && bytes.length <= MIB, `${rows.length} rows, ${bytes.length} bytes`);
      assert.deepEqual(rows.map((r) => r.id), Array.from({ length: rows.length }, (_, i) => i + 1));
      const record = (await adminQuery("select status_code, status_message, request, response, detail from audit_log where action = 'bb.sql.export' order by id desc limit 1", t.app.database.url)).rows[0] as Json;
      assert.deepEqual([record.status_code, record.detail.rowCount, record.detail.bytes, record.detail.format], ["resource_exhausted", rows.length, bytes.length, "JSON"]);
      assert.match(record.status_message, /sql_result_size \(1048576 bytes\)/);
      assert.equal(typeof record.detail.durationMs, "number");
      assert.ok(!JSON.stringify(record).includes("xxxxxxxx"), "no row data in the record");
      const [entry] = (await t.rest<Json>("GET", "/v1/queryHistories?filter=type%3DEXPORT", { token: t.admin })).body.queryHistories;
      assert.deepEqual([entry.statement, entry.rowCount], [BIG, String(rows.length)]);
    });
  });

  it("keeps a whole workbook (REST) and a whole CSV on MySQL when the bound stops the export", async () => {
    await withResultSize(MIB, async () => {
      const xlsx = await slowly({ name: t.pg.name, statement: "select id, md5(id::text) as a, md5(pad) as b from big order by id", format: "XLSX" });
      const book = XLSX.read(xlsx.bytes, { type: "buffer" });
      const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 });
      assert.ok(!xlsx.complete && rows.length > 1000 && rows.length < ROWS, `${rows.length} rows`);
      const csv = await slowly({ name: t.my!.name, statement: BIG, format: "CSV" });
      const lines = parse(csv.bytes) as string[][];
      assert.ok(!csv.complete && lines.length > 1000 && lines.length < ROWS && lines.every((line) => line.length === 2 && line[1]!.length >= 2));
    });
  });

  it("ends at sql_result_size with resource_exhausted over Connect, after the file's last message", async () => {
    await withResultSize(MIB, async () => {
      const client = createClient(SQLService, createConnectTransport({ baseUrl: t.app.baseUrl, httpVersion: "1.1" }));
      const chunks: Uint8Array[] = [];
      const stream = client.export({ name: t.pg.name, statement: BIG, format: ExportRequest_Format.CSV }, { headers: { authorization: `Bearer ${t.admin}` } });
      const error = await (async () => {
        for await (const message of stream) chunks.push(message.content);
      })().then(() => undefined, (thrown: unknown) => ConnectError.from(thrown));
      assert.equal(error?.code, Code.ResourceExhausted);
      assert.match(error.rawMessage, /reached sql_result_size \(1048576 bytes\): the file ends after its first \d+ rows, whole/);
      const lines = parse(Buffer.concat(chunks)) as string[][];
      assert.deepEqual(lines[0], ["id", "pad"]);
      assert.equal(lines.at(-1)![1], "x".repeat(200));
    });
  });

  it("stops the statement on the target when the client goes away, before the first byte and mid-file", async () => {
    const early = new AbortController();
    const waiting = download({ name: t.pg.name, statement: "select pg_sleep(60) as export_wait_marker", format: "CSV" }, { signal: early.signal, correlationId: "left-early" });
    await eventually(async () => (await pgBackends("export_wait_marker")) === 1);
    early.abort();
    await assert.rejects(waiting);
    await eventually(async () => (await pgBackends("export_wait_marker")) === 0);
    await eventually(async () => (await recordOf("left-early"))?.status_code === "canceled");

    const res = await download({ name: t.pg.name, statement: "select id, pad, 'export_stream_marker' from big", format: "CSV" });
    const reader = res.body!.getReader();
    assert.ok(((await reader.read()).value?.length ?? 0) > 0);
    await eventually(async () => (await pgBackends("export_stream_marker")) === 1);
    await reader.cancel();
    await eventually(async () => (await pgBackends("export_stream_marker")) === 0);

    const processes = async () =>
      (await t.my!.query("select count(*) as n from information_schema.processlist where info like '%export_my_marker%' and id <> connection_id()"))[0]!.n as number;
    const mine = new AbortController();
    const my = download({ name: t.my!.name, statement: "select sleep(60) as export_my_marker", format: "CSV" }, { signal: mine.signal });
    await eventually(async () => (await processes()) === 1);
    mine.abort();
    await assert.rejects(my);
    await eventually(async () => (await processes()) === 0);
  });

  it("cuts the download when the target fails mid-file, and serves on (XLSX too)", async () => {
    const failing = "select g, md5(g::text) || repeat('y', 100) as pad, 1 / (g - 6000) as boom from generate_series(1, 10000) g";
    for (const format of ["CSV", "XLSX"]) {
      const res = await slowly({ name: t.pg.name, statement: failing, format });
      if (res.status === 200) assert.equal(res.complete, false, format);
      else assert.match(JSON.parse(res.bytes.toString()).message, /the target refused it: division by zero/, format);
    }
    const after = await download({ name: t.pg.name, statement: "select 1 as one", format: "CSV" });
    assert.equal(await after.text(), "one\r\n1\r\n");
  });

  it("answers JSON errors for what is refused before the first byte: a write, two statements, the target's refusal", async () => {
    const refusals: [string, RegExp][] = [
      ["delete from big", /only read statements are allowed/],
      ["select 1; select 2", /Export takes one statement, got 2/],
      ["select * from no_such_table", /the target refused it: relation "no_such_table" does not exist/],
    ];
    for (const [statement, message] of refusals) {
      const res = await download({ name: t.pg.name, statement, format: "CSV" });
      const error = (await res.json()) as Json;
      assert.deepEqual([res.status, error.code], [400, "invalid_argument"], statement);
      assert.match(error.message, message);
    }
  });

  it("needs bb.sql.export: a projectExporter exports, a projectViewer is refused", async () => {
    const allowed = await download({ name: t.pg.name, statement: "select 1 as one", format: "CSV" }, { token: tokens.exporter });
    assert.deepEqual([allowed.status, await allowed.text()], [200, "one\r\n1\r\n"]);
    const refused = await download({ name: t.pg.name, statement: "select 1", format: "CSV" }, { token: tokens.viewer });
    assert.deepEqual([refused.status, await refused.json()], [403, { code: "permission_denied", message: "permission bb.sql.export required on projects/sqlx" }]);
  });

  it("masks what the exporter may not see, a masked number as text", async () => {
    await storeMaskingSchemes(t);
    const marks = [["public", "big", "id", "full"], ["public", "big", "pad", "range"]];
    assert.equal((await patchCatalog(t, t.pg.name, marks)).status, 200);
    const res = await download({ name: t.pg.name, statement: "select id, pad from big limit 2", format: "JSON" }, { token: tokens.exporter });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), [
      { id: "******", pad: `**${"x".repeat(198)}` },
      { id: "******", pad: `**${"x".repeat(198)}` },
    ]);
  });

  async function withResultSize(bytes: number, work: () => Promise<void>): Promise<void> {
    await mergeWorkspaceProfile(t.app, { sqlResultSize: String(bytes) });
    try {
      await work();
    } finally {
      await mergeWorkspaceProfile(t.app, { sqlResultSize: String(100 * MIB) });
    }
  }
});
