// The audit hook (contract §8.1): an audited call and its record commit in
// one transaction; a failed call leaves only the record of its refusal unless
// the handler keeps its changes; secrets never reach a record; records are
// append-only and mirrored to stdout after commit when the workspace asks.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { TranscodingService } from "./gen/svctest/v1/transcoding_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";
import { adminQuery } from "./helpers/db.ts";

interface AuditRow {
  actor: string;
  actor_ip: string;
  action: string;
  method: string;
  resource: string;
  severity: string;
  status_code: string;
  request: string;
  response: string;
  detail: Record<string, unknown>;
  correlation_id: string;
  latency_us: string;
}

describe("audit hook", () => {
  let app: TestApp;
  const mirrored: string[] = [];
  let mirrorFails = false;
  before(async () => {
    app = await startTestApp({
      deps: {
        authenticate: async (token) =>
          token === "alice-token"
            ? { name: "users/alice", id: 0, loginId: "alice" }
            : token === "pat-token"
              ? { name: "users/pat", id: 0, loginId: "pat", restriction: "password_change" }
              : undefined,
        auditStdout: (line) => {
          if (mirrorFails) throw new Error("stdout is closed");
          mirrored.push(line);
        },
      },
    });
    await adminQuery("create table thing_change (name text not null)", app.database.url);
  });
  after(() => app.close());

  const record = (name: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(`${app.baseUrl}/v1/${name}:record`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const auditRows = async (resource: string) =>
    (await adminQuery(`select * from audit_log where resource = '${resource}' order by id`, app.database.url)).rows as AuditRow[];
  const changes = async (name: string) =>
    (await adminQuery(`select count(*)::int as n from thing_change where name = '${name}'`, app.database.url)).rows[0].n as number;

  it("commits the change and its record together, with the call's facts and secrets redacted", async () => {
    const name = "shelves/a/things/ok";
    const res = await record(name, { note: "hello", token: "tok-123", pin: "4321", outcome: "ok", details: [{ note: "n" }] }, {
      "x-correlation-id": "audit-corr-1",
      "user-agent": "audit-test/1",
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { receipt: string }).receipt, "secret-receipt", "the client still gets the value");
    assert.equal(await changes(name), 1);
    const [row, ...rest] = await auditRows(name);
    assert.equal(rest.length, 0);
    assert.ok(row);
    assert.equal(row.action, "svctest.things.record");
    assert.equal(row.actor, "anonymous");
    assert.equal(row.actor_ip, "127.0.0.1");
    assert.equal(row.method, "/svctest.v1.TranscodingService/RecordThing");
    assert.equal(row.severity, "INFO");
    assert.equal(row.status_code, "ok");
    assert.equal(row.correlation_id, "audit-corr-1");
    assert.ok(Number(row.latency_us) > 0);
    assert.deepEqual(row.detail, { note: "hello" });
    assert.deepEqual(JSON.parse(row.request), { name, note: "hello", token: "***", pin: "***", outcome: "ok", details: [{ note: "n" }] });
    assert.deepEqual(JSON.parse(row.response), { name, receipt: "***" });
    for (const secret of ["tok-123", "4321", "secret-receipt"]) {
      assert.ok(!JSON.stringify(row).includes(secret), `${secret} must not be recorded`);
    }
  });

  it("rolls a failed call back and records only its refusal", async () => {
    const name = "shelves/a/things/refused";
    const res = await record(name, { outcome: "failed_precondition+extra", token: "tok-9" });
    assert.equal(res.status, 400);
    assert.equal(await changes(name), 0, "the change rolled back");
    const rows = await auditRows(name);
    assert.deepEqual(
      rows.map((r) => [r.action, r.status_code]),
      [["svctest.things.record", "failed_precondition"]],
      "one refusal record, no extra record of a change that did not happen",
    );
    assert.equal(JSON.parse(rows[0]!.request).token, "***");
  });

  it("keeps the changes and every record of a failure the handler keeps", async () => {
    const name = "shelves/a/things/kept";
    const res = await record(name, { outcome: "unauthenticated+keep+extra" });
    assert.equal(res.status, 401);
    assert.equal(await changes(name), 1);
    const rows = await auditRows(name);
    assert.deepEqual(
      rows.map((r) => [r.action, r.actor, r.severity, r.status_code]),
      [
        ["svctest.things.record", "anonymous", "INFO", "unauthenticated"],
        ["svctest.things.extra", "system", "CRITICAL", "unauthenticated"],
      ],
    );
  });

  it("records an internal failure at ERROR severity", async () => {
    const name = "shelves/a/things/crashed";
    assert.equal((await record(name, { outcome: "internal" })).status, 500);
    const [row] = await auditRows(name);
    assert.equal(row?.severity, "ERROR");
    assert.equal(row?.status_code, "internal");
  });

  it("records a permission refusal with the caller as actor, over gRPC as well", async () => {
    const name = "shelves/a/things/guarded";
    const client = createClient(TranscodingService, createGrpcTransport({ baseUrl: app.baseUrl }));
    await assert.rejects(client.guardedRecordThing({ name }, { headers: { authorization: "Bearer alice-token" } }), /bb\.settings\.set/);
    assert.equal(await changes(name), 0);
    const [row] = await auditRows(name);
    assert.equal(row?.action, "svctest.things.guardedRecord");
    assert.equal(row?.actor, "users/alice");
    assert.equal(row?.status_code, "permission_denied");
  });

  it("records the refusal of a principal whose password change is pending (§1.3, §8.2)", async () => {
    const name = "shelves/a/things/pending";
    const res = await fetch(`${app.baseUrl}/v1/${name}:guardedRecord`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer pat-token" },
      body: JSON.stringify({ outcome: "ok" }),
    });
    assert.equal(res.status, 403);
    const body = (await res.json()) as { code: string; message: string };
    assert.equal(body.code, "permission_denied");
    assert.match(body.message, /^password change required/);
    const client = createClient(TranscodingService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const refused = await client.guardedRecordThing({ name }, { headers: { authorization: "Bearer pat-token" } }).catch((e: unknown) => ConnectError.from(e));
    assert.equal((refused as ConnectError).code, Code.PermissionDenied);
    assert.equal(await changes(name), 0);
    assert.deepEqual(
      (await auditRows(name)).map((r) => [r.action, r.actor, r.status_code, r.request]),
      [
        ["svctest.things.guardedRecord", "users/pat", "permission_denied", JSON.stringify({ name, outcome: "ok" })],
        ["svctest.things.guardedRecord", "users/pat", "permission_denied", JSON.stringify({ name })],
      ],
    );
    const anonymous = "shelves/a/things/pending-public";
    assert.equal((await record(anonymous, { outcome: "ok" }, { authorization: "Bearer pat-token" })).status, 200);
    assert.equal((await auditRows(anonymous))[0]?.actor, "anonymous", "a public call made with a restricted credential runs as anonymous");
  });

  it("refuses to change or remove a record", async () => {
    await record("shelves/a/things/permanent", { outcome: "ok" });
    await assert.rejects(adminQuery("update audit_log set actor = 'x'", app.database.url), /append-only/);
    await assert.rejects(adminQuery("delete from audit_log", app.database.url), /append-only/);
    await assert.rejects(adminQuery("truncate audit_log", app.database.url), /append-only/);
  });

  it("mirrors committed records to stdout only while enable_audit_log_stdout is on", async () => {
    mirrored.length = 0;
    await record("shelves/a/things/quiet", { outcome: "ok" });
    assert.equal(mirrored.length, 0);
    await mergeWorkspaceProfile(app, { enableAuditLogStdout: true });
    const name = "shelves/a/things/loud";
    // A pin no timestamp, id or correlation id of the record can hold by chance
    // ("9999" once matched a record's time).
    await record(name, { outcome: "ok", pin: "pin-never-mirrored" });
    await record("shelves/a/things/loud-refused", { outcome: "aborted" });
    const lines = mirrored.map((line) => JSON.parse(line) as { audit: Record<string, unknown> });
    assert.deepEqual(
      lines.map((l) => [l.audit.resource, (l.audit.status as { code: string }).code]),
      [
        [name, "ok"],
        ["shelves/a/things/loud-refused", "aborted"],
      ],
    );
    assert.match(String(lines[0]?.audit.name), /^auditLogs\/\d+$/);
    assert.ok(!mirrored.join("").includes("pin-never-mirrored"));
    assert.equal((JSON.parse(String(lines[0]?.audit.request)) as { pin: string }).pin, "***", "the pin is there, redacted");
  });

  it("never reports a committed call failed, nor replaces a refusal's error, when mirroring fails", async () => {
    await mergeWorkspaceProfile(app, { enableAuditLogStdout: true });
    mirrorFails = true;
    try {
      const name = "shelves/a/things/mirror-broken";
      const ok = await record(name, { outcome: "ok" });
      assert.equal(ok.status, 200, await ok.clone().text());
      assert.equal(await changes(name), 1, "the change stays committed");
      const refusedName = "shelves/a/things/mirror-broken-refused";
      const refused = await record(refusedName, { outcome: "aborted" });
      assert.equal(refused.status, 409);
      assert.deepEqual(await refused.json(), { code: "aborted", message: "asked to fail with aborted" });
      const client = createClient(TranscodingService, createGrpcTransport({ baseUrl: app.baseUrl }));
      const viaGrpc = await client.recordThing({ name: `${name}-grpc`, outcome: "ok" });
      assert.equal(viaGrpc.name, `${name}-grpc`);
      assert.deepEqual((await auditRows(name)).map((r) => r.status_code), ["ok"]);
      assert.deepEqual((await auditRows(refusedName)).map((r) => r.status_code), ["aborted"]);
      assert.deepEqual((await auditRows(`${name}-grpc`)).map((r) => r.status_code), ["ok"]);
    } finally {
      mirrorFails = false;
    }
  });
});
