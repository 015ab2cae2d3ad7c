// Audit export (contract §8.3, §18.9): the file over REST (CSV, one JSON
// array, NDJSON) with its headers, and the same file as server-streamed
// chunks over Connect and gRPC; many batches in order; errors before the
// first byte as JSON errors; secrets kept as "***"; and the export's own
// audit record with its query and row count, written when the stream ends.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { AUDIT_RECORD_FIELDS } from "../shared/governance/audit/audit-json.ts";
import { AuditLogService, ExportAuditLogsRequest_Format, type ExportAuditLogsResponse } from "../shared/gen/svc/v1/audit_log_service_pb.js";
import { adminQuery } from "./helpers/db.ts";
import { lastAuditId, recordsSince, seedRecords, startAuditApp, type AuditApp, type SeedRecord } from "./helpers/audit.ts";
import { ADMIN, STRONG_PASSWORD } from "./helpers/users.ts";

type Json = Record<string, unknown>;

const TRICKY: SeedRecord[] = [
  { create_time: "2020-05-01T00:00:00Z", actor: "users/alice", action: "bb.export.test", user_agent: `curl/8, "quoted"`, resource: "projects/p1" },
  { create_time: "2020-05-01T00:01:00Z", actor: "users/bob", action: "bb.export.test", request: `{"note":"two\\r\\nlines, and \\"quotes\\""}`, detail: { text: "a,b\n\"c\"", n: 1.5 } },
  { create_time: "2020-05-01T00:02:00Z", actor: "system", action: "bb.export.test", status_code: "internal", status_message: "boom, twice", severity: "ERROR" },
  { create_time: "2020-05-01T00:03:00Z", actor: "users/alice", action: "bb.export.test", user_agent: "ünïcødé ✓", correlation_id: "c-3" },
];
const FILTER = "action:bb.export.test";

/** RFC 4180: rows of cells; quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(cell), (cell = "");
    else if (c === "\r" && text[i + 1] === "\n") row.push(cell), rows.push(row), (row = []), (cell = ""), i++;
    else cell += c;
  }
  assert.equal(cell + row.join(""), "", "the file ends with CRLF");
  return rows;
}

describe("audit export", () => {
  let fx: AuditApp;
  let names: string[] = [];
  const exportFile = (as: string | undefined, body: Json) =>
    fetch(`${fx.app.baseUrl}/v1/auditLogs:export`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(as ? { authorization: `Bearer ${as}` } : {}) },
      body: JSON.stringify(body),
    });
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  const connect = () => createClient(AuditLogService, createConnectTransport({ baseUrl: fx.app.baseUrl, httpVersion: "1.1" }));
  const grpc = () => createClient(AuditLogService, createGrpcTransport({ baseUrl: fx.app.baseUrl }));
  const collect = async (chunks: AsyncIterable<ExportAuditLogsResponse>) => {
    const messages: ExportAuditLogsResponse[] = [];
    for await (const chunk of chunks) messages.push(chunk);
    return { messages, text: Buffer.concat(messages.map((m) => m.content)).toString("utf8") };
  };

  before(async () => {
    fx = await startAuditApp();
    names = await seedRecords(fx.app, TRICKY);
  });
  after(() => fx.app.close());

  it("downloads NDJSON over REST: the file itself, one §8.1 record per line, newest first", async () => {
    const res = await exportFile(fx.token.auditor, { filter: FILTER, format: "NDJSON" });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get("content-type"), "application/x-ndjson");
    assert.match(res.headers.get("content-disposition") ?? "", /^attachment; filename="audit-logs-\d{8}T\d{6}Z\.ndjson"$/);
    assert.ok(res.headers.get("x-correlation-id"));
    const lines = (await res.text()).split("\n");
    assert.equal(lines.pop(), "", "every line ends with a newline");
    const records = lines.map((line) => JSON.parse(line) as Json);
    assert.deepEqual(records.map((r) => r.name), [...names].reverse());
    assert.deepEqual(Object.keys(records[0]!), [...AUDIT_RECORD_FIELDS], "every field, in §8.1 order");
    assert.deepEqual(records[2], {
      name: names[1],
      createTime: "2020-05-01T00:01:00.000Z",
      actor: "users/bob",
      actorIp: "",
      userAgent: "",
      action: "bb.export.test",
      method: "",
      resource: "",
      severity: "INFO",
      status: { code: "ok", message: "" },
      latency: "0s",
      correlationId: "",
      request: TRICKY[1]!.request,
      response: "",
      detail: { text: "a,b\n\"c\"", n: 1.5 },
    });
  });

  it("downloads CSV (RFC 4180) whose columns are the JSON field names and whose nested values are JSON", async () => {
    const [csv, ndjson] = await Promise.all(
      ["CSV", "NDJSON"].map((format) => exportFile(fx.token.officer, { filter: FILTER, format, orderBy: "create_time asc" })),
    );
    assert.equal(csv!.status, 200);
    assert.equal(csv!.headers.get("content-type"), "text/csv; charset=utf-8");
    assert.match(csv!.headers.get("content-disposition") ?? "", /^attachment; filename="audit-logs-\d{8}T\d{6}Z\.csv"$/);
    const text = await csv!.text();
    assert.ok(text.includes(`"curl/8, ""quoted"""`), "a cell with a comma and quotes is quoted, its quotes doubled");
    const [header, ...rows] = parseCsv(text);
    assert.deepEqual(header, [...AUDIT_RECORD_FIELDS]);
    const records = (await ndjson!.text()).trim().split("\n").map((line) => JSON.parse(line) as Json);
    assert.deepEqual(records.map((r) => r.name), names, "oldest first");
    assert.equal(rows.length, records.length);
    rows.forEach((cells, i) => {
      AUDIT_RECORD_FIELDS.forEach((field, column) => {
        const value = records[i]![field];
        assert.deepEqual(typeof value === "string" ? cells[column] : JSON.parse(cells[column]!), value, `${names[i]} ${field}`);
      });
    });
    assert.deepEqual(JSON.parse(rows[2]![AUDIT_RECORD_FIELDS.indexOf("status")]!), { code: "internal", message: "boom, twice" });
    assert.equal(rows[3]![AUDIT_RECORD_FIELDS.indexOf("userAgent")], "ünïcødé ✓");
  });

  it("downloads one JSON array, also when nothing matches", async () => {
    const res = await exportFile(fx.token.auditor, { filter: `${FILTER} AND actor:alice`, format: "JSON", orderBy: "create_time asc" });
    assert.equal(res.headers.get("content-type"), "application/json");
    assert.match(res.headers.get("content-disposition") ?? "", /\.json"$/);
    const records = (await res.json()) as Json[];
    assert.deepEqual(records.map((r) => r.name), [names[0], names[3]]);
    const empty = await exportFile(fx.token.auditor, { filter: "action:bb.nothing", format: "JSON" });
    assert.equal(empty.status, 200);
    assert.deepEqual(await empty.json(), []);
    const csv = await exportFile(fx.token.auditor, { filter: "action:bb.nothing", format: "CSV" });
    assert.deepEqual(parseCsv(await csv.text()), [[...AUDIT_RECORD_FIELDS]], "an empty CSV still has its header");
  });

  it("streams many batches in order over REST, Connect and gRPC, in chunks that name the file first", async () => {
    await adminQuery(
      `insert into audit_log (create_time, actor, action, severity, request)
       select timestamptz '2019-01-01' + (g / 3) * interval '1 second', 'system', 'bb.bulk.export', 'INFO', repeat('x', 300) || g
       from generate_series(1, 6007) g`,
      fx.app.database.url,
    );
    const filter = "action:bb.bulk.export";
    const rest = (await (await exportFile(fx.token.auditor, { filter, format: "NDJSON" })).text()).trim().split("\n").map((l) => (JSON.parse(l) as Json).name);
    assert.equal(rest.length, 6007);
    assert.equal(new Set(rest).size, 6007, "no record twice across batches");
    const ids = rest.map((name) => Number(String(name).split("/")[1]));
    assert.deepEqual(ids, [...ids].sort((a, b) => b - a), "newest first, ties by id, across batches");
    for (const client of [connect(), grpc()]) {
      const { messages, text } = await collect(client.exportAuditLogs({ filter, format: ExportAuditLogsRequest_Format.NDJSON }, as(fx.token.officer)));
      assert.ok(messages.length > 2, `several chunks (${messages.length})`);
      assert.equal(messages[0]!.contentType, "application/x-ndjson");
      assert.match(messages[0]!.filename, /^audit-logs-\d{8}T\d{6}Z\.ndjson$/);
      assert.ok(messages.slice(1).every((m) => m.contentType === "" && m.filename === ""), "only the first chunk names the file");
      assert.deepEqual(text.trim().split("\n").map((l) => (JSON.parse(l) as Json).name), rest);
    }
  });

  it("answers errors before the first byte as JSON errors (REST) and Connect errors", async () => {
    const cases: [string | undefined, Json, number, string, RegExp][] = [
      [fx.token.auditor, { filter: "owner:x", format: "CSV" }, 400, "invalid_argument", /^unknown filter field "owner"; supported: action, actor/],
      [fx.token.auditor, { filter: FILTER }, 400, "invalid_argument", /^format: required, one of CSV, JSON, NDJSON$/],
      [fx.token.auditor, { filter: FILTER, format: "XLSX" }, 400, "invalid_argument", /Format from JSON: "XLSX"/],
      [fx.token.member, { filter: FILTER, format: "CSV" }, 403, "permission_denied", /^permission bb.auditLogs.export required on workspaces\/-$/],
      [undefined, { filter: FILTER, format: "CSV" }, 401, "unauthenticated", /sign in/],
    ];
    for (const [token, body, status, code, message] of cases) {
      const res = await exportFile(token, body);
      assert.equal(res.status, status, JSON.stringify(body));
      assert.match(res.headers.get("content-type") ?? "", /^application\/json\b/);
      assert.equal(res.headers.get("content-disposition"), null);
      const error = (await res.json()) as { code: string; message: string };
      assert.equal(error.code, code);
      assert.match(error.message, message);
    }
    const refused = await collect(connect().exportAuditLogs({ filter: "owner:x", format: ExportAuditLogsRequest_Format.CSV }, as(fx.token.auditor))).catch((e: unknown) => ConnectError.from(e));
    assert.equal((refused as ConnectError).code, Code.InvalidArgument);
    const denied = await collect(grpc().exportAuditLogs({ format: ExportAuditLogsRequest_Format.CSV }, as(fx.token.member))).catch((e: unknown) => ConnectError.from(e));
    assert.equal((denied as ConnectError).code, Code.PermissionDenied);
  });

  it("keeps secrets as \"***\": no password of a recorded call appears in any format", async () => {
    for (const format of ["CSV", "JSON", "NDJSON"]) {
      const text = await (await exportFile(fx.token.auditor, { filter: "actor:admin AND action:bb.auth.password.change", format })).text();
      assert.ok(text.includes("***"), `${format} shows the redaction`);
      for (const secret of [ADMIN.password, STRONG_PASSWORD]) assert.ok(!text.includes(secret), `${format} must not hold a password`);
    }
  });

  it("writes its own audit record when the stream ends: the query, the format and the row count", async () => {
    const since = await lastAuditId(fx.app);
    await (await exportFile(fx.token.auditor, { filter: FILTER, format: "CSV", orderBy: "create_time asc" })).text();
    await collect(connect().exportAuditLogs({ filter: `${FILTER} AND actor:me`, format: ExportAuditLogsRequest_Format.JSON }, as(fx.token.officer)));
    await (await exportFile(fx.token.auditor, { filter: "owner:x", format: "CSV" })).text();
    await (await exportFile(fx.token.member, { filter: FILTER, format: "NDJSON" })).text();
    const records = await recordsSince(fx.app, since, "bb.auditLogs.export");
    const summary = records.map((r) => ({ actor: r.actor, resource: r.resource, status: r.status_code, detail: r.detail, response: r.response }));
    assert.deepEqual(summary, [
      { actor: "users/auditor", resource: "workspaces/-", status: "ok", detail: { filter: FILTER, orderBy: "create_time asc", format: "CSV", rowCount: 4 }, response: "" },
      { actor: "users/officer", resource: "workspaces/-", status: "ok", detail: { filter: `${FILTER} AND actor:me`, orderBy: "", format: "JSON", rowCount: 0 }, response: "" },
      { actor: "users/auditor", resource: "workspaces/-", status: "invalid_argument", detail: { filter: "owner:x", orderBy: "", format: "CSV", rowCount: 0 }, response: "" },
      { actor: "users/member", resource: "workspaces/-", status: "permission_denied", detail: {}, response: "" },
    ]);
    const first = records[0]!;
    assert.deepEqual(JSON.parse(String(first.request)), { filter: FILTER, orderBy: "create_time asc", format: "CSV" });
    assert.equal(first.method, "/svc.v1.AuditLogService/ExportAuditLogs");
    assert.equal(first.actor_ip, "127.0.0.1");
    assert.ok(Number(first.latency_us) > 0);
    const found = await fx.rest<{ auditLogs: Json[] }>("GET", `/v1/auditLogs?filter=${encodeURIComponent("action:bb.auditLogs.export AND actor:me")}`, { token: fx.token.auditor });
    const foundNames = found.body.auditLogs.map((log) => log.name);
    for (const i of [0, 2]) assert.ok(foundNames.includes(`auditLogs/${records[i]!.id}`), "the export's record is searchable like any other");
  });

  it("records an export the client abandons as canceled, after reading a chunk or right after the headers", async () => {
    await adminQuery(
      `insert into audit_log (create_time, actor, action, severity, request)
       select timestamptz '2018-01-01' + g * interval '1 second', 'system', 'bb.bulk.abandon', 'INFO', repeat('y', 1000)
       from generate_series(1, 30000) g`,
      fx.app.database.url,
    );
    /** The export's own record, once the client left. */
    const abandon = async (readFirstChunk: boolean) => {
      const since = await lastAuditId(fx.app);
      const controller = new AbortController();
      const res = await fetch(`${fx.app.baseUrl}/v1/auditLogs:export`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${fx.token.auditor}` },
        body: JSON.stringify({ filter: "action:bb.bulk.abandon", format: "NDJSON" }),
        signal: controller.signal,
      });
      assert.equal(res.status, 200);
      if (readFirstChunk) assert.ok(((await res.body!.getReader().read()).value?.byteLength ?? 0) > 0);
      controller.abort();
      let records: Json[] = [];
      for (let tries = 0; tries < 100 && records.length === 0; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        records = await recordsSince(fx.app, since, "bb.auditLogs.export");
      }
      assert.equal(records.length, 1, "the abandoned export still leaves its record");
      return records[0]!;
    };
    const afterChunk = await abandon(true);
    assert.deepEqual([afterChunk.actor, afterChunk.status_code], ["users/auditor", "canceled"]);
    const rowCount = (afterChunk.detail as { rowCount: number }).rowCount;
    assert.ok(rowCount > 0 && rowCount < 30000, `rows sent before the client left: ${rowCount}`);
    const afterHeaders = await abandon(false);
    assert.deepEqual([afterHeaders.actor, afterHeaders.status_code], ["users/auditor", "canceled"]);
  });
});
