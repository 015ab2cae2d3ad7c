// Audit search (contract §8.3, §2.1–§2.4): ListAuditLogs and SearchAuditLogs
// over REST, Connect and gRPC — every filter field and the actor forms, the
// two orders, page sizes, keyset pages that neither repeat nor skip while
// records arrive, bound page tokens, and who may search.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { AuditLog_Severity, AuditLogService } from "../shared/gen/svc/v1/audit_log_service_pb.js";
import { adminQuery } from "./helpers/db.ts";
import { lastAuditId, recordsSince, seedRecords, startAuditApp, type AuditApp, type SeedRecord } from "./helpers/audit.ts";

type Json = Record<string, unknown>;
type ListReply = { auditLogs?: Json[]; nextPageToken?: string; code?: string; message?: string };

const T0 = Date.parse("2020-03-01T00:00:00Z");
/** Confines a filter to the seeded records (everything else was written now). */
const SEEDED = `create_time >= "2020-01-01T00:00:00Z" AND create_time < "2021-01-01T00:00:00Z"`;
const ACTORS = ["users/alice", "users/bob", "system", "users/auditor"];
const RESOURCES = ["projects/p1/issues/", "projects/p10/issues/", "projects/p_1/issues/", "instances/i1/databases/", "workspaces/-/"];

/** Record i is written at minute i, microsecond i; records 20 and 21 share a time, so pages must break ties by id. */
const minuteOf = (i: number) => (i === 21 ? 20 : i);

function seedOf(i: number): SeedRecord {
  return {
    create_time: new Date(T0 + minuteOf(i) * 60_000).toISOString().replace("Z", `${String(minuteOf(i)).padStart(3, "0")}Z`),
    actor: ACTORS[i % 4]!,
    action: i % 3 === 0 ? "bb.issues.approve" : "bb.issues.update",
    method: i % 3 === 0 ? "/svc.v1.IssueService/ApproveIssue" : "/svc.v1.IssueService/UpdateIssue",
    resource: `${RESOURCES[i % 5]}${i}`,
    severity: i % 7 === 0 ? "WARNING" : i % 11 === 0 ? "CRITICAL" : "INFO",
    actor_ip: `10.0.0.${i % 3}`,
    user_agent: `agent/${i}`,
    status_code: i % 6 === 0 ? "permission_denied" : "ok",
    status_message: i % 6 === 0 ? "permission bb.issues.update required on projects/p1" : "",
    latency_us: 1500 + i,
    correlation_id: `corr-${i}`,
    request: JSON.stringify({ name: `issue ${i}`, password: "***" }),
    response: i % 6 === 0 ? "" : JSON.stringify({ name: `issue ${i}` }),
    detail: { i },
  };
}

describe("audit search", () => {
  let fx: AuditApp;
  const seeds = Array.from({ length: 40 }, (_, i) => seedOf(i));
  let names: string[] = [];

  const list = (as: string, params: Record<string, string | number>) =>
    fx.rest<ListReply>("GET", `/v1/auditLogs?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`, { token: as });
  const search = (as: string, body: Json) => fx.rest<ListReply>("POST", "/v1/auditLogs:search", { token: as, body });
  /** Seeded record names matching `keep`, newest first. */
  const expected = (keep: (seed: SeedRecord, i: number) => boolean) =>
    seeds.flatMap((seed, i) => (keep(seed, i) ? [i] : [])).reverse().map((i) => names[i]!);
  const namesOf = (reply: { body: ListReply }) => (reply.body.auditLogs ?? []).map((log) => log.name);
  const connect = () => createClient(AuditLogService, createConnectTransport({ baseUrl: fx.app.baseUrl, httpVersion: "1.1" }));
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  before(async () => {
    fx = await startAuditApp();
    names = await seedRecords(fx.app, seeds);
  });
  after(() => fx.app.close());

  it("answers records in the §8.1 shape, newest first, secrets as stored (\"***\")", async () => {
    const reply = await list(fx.token.auditor, { filter: `correlation_id:corr-6 AND ${SEEDED}` });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body.auditLogs, [
      {
        name: names[6],
        createTime: "2020-03-01T00:06:00Z",
        actor: "system",
        actorIp: "10.0.0.0",
        userAgent: "agent/6",
        action: "bb.issues.approve",
        method: "/svc.v1.IssueService/ApproveIssue",
        resource: "projects/p10/issues/6",
        severity: "INFO",
        status: { code: "permission_denied", message: "permission bb.issues.update required on projects/p1" },
        latency: "0.001506s",
        correlationId: "corr-6",
        request: JSON.stringify({ name: "issue 6", password: "***" }),
        detail: { i: 6 },
      },
    ]);
    assert.equal(reply.body.nextPageToken, undefined, "one page");
    const all = await list(fx.token.auditor, { filter: SEEDED, pageSize: 100 });
    assert.deepEqual(namesOf(all), expected(() => true));
  });

  it("filters by every §2.4 field, alone and joined by AND", async () => {
    const cases: [string, (s: SeedRecord, i: number) => boolean][] = [
      ["actor:alice", (s) => s.actor === "users/alice"],
      ["actor:users/alice", (s) => s.actor === "users/alice"],
      ["actor = users/ALICE", (s) => s.actor === "users/alice"],
      ["actor:system", (s) => s.actor === "system"],
      ["actor != system", (s) => s.actor !== "system"],
      ["action:bb.issues.approve", (s) => s.action === "bb.issues.approve"],
      ["action:bb.issues", () => false],
      ["method:/svc.v1.IssueService/UpdateIssue", (s) => s.method === "/svc.v1.IssueService/UpdateIssue"],
      ["resource:projects/p1", (s) => s.resource!.startsWith("projects/p1")],
      ["resource:projects/p1/", (s) => s.resource!.startsWith("projects/p1/")],
      [`resource:"projects/p_"`, (s) => s.resource!.startsWith("projects/p_")],
      ["resource = projects/p1/issues/5", (s) => s.resource === "projects/p1/issues/5"],
      ["resource:projects/p1/issues/5", (s) => s.resource!.startsWith("projects/p1/issues/5")],
      ["severity:WARNING", (s) => s.severity === "WARNING"],
      ["severity != INFO", (s) => s.severity !== "INFO"],
      ["actor_ip:10.0.0.2", (s) => s.actor_ip === "10.0.0.2"],
      ["actorIp = 10.0.0.1", (s) => s.actor_ip === "10.0.0.1"],
      ["status:permission_denied", (s) => s.status_code === "permission_denied"],
      ["status:ok", (s) => s.status_code === "ok"],
      [`create_time >= "2020-03-01T00:10:00Z" AND create_time < "2020-03-01T00:15:00Z"`, (_s, i) => i >= 10 && i <= 14],
      [`create_time > "2020-03-01T00:35:00.035Z"`, (_s, i) => i >= 36],
      [`createTime <= "2020-02-29T23:00:00-01:00"`, (_s, i) => i === 0],
      ["correlation_id:corr-7", (_s, i) => i === 7],
      ["actor:bob AND action:bb.issues.approve and status:permission_denied", (s) => s.actor === "users/bob" && s.action === "bb.issues.approve" && s.status_code === "permission_denied"],
    ];
    for (const [filter, keep] of cases) {
      const reply = await list(fx.token.auditor, { filter: `${filter} AND ${SEEDED}`, pageSize: 100 });
      assert.equal(reply.status, 200, `${filter}: ${JSON.stringify(reply.body)}`);
      assert.deepEqual(namesOf(reply), expected(keep), filter);
    }
    const none = await search(fx.token.auditor, { filter: `resource:"projects/p%" AND ${SEEDED}` });
    assert.deepEqual(namesOf(none), [], "% in a prefix is taken literally");
  });

  it("reads actor:me as the caller, in every form", async () => {
    for (const filter of ["actor:me", "actor:users/me", "actor:auditor", "actor = users/auditor"]) {
      const reply = await search(fx.token.auditor, { filter: `${filter} AND ${SEEDED}`, pageSize: 100 });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(namesOf(reply), expected((s) => s.actor === "users/auditor"), filter);
    }
    const officer = await search(fx.token.officer, { filter: `actor:me AND ${SEEDED}` });
    assert.deepEqual(namesOf(officer), [], "the officer has no seeded records");
    const ownSignIn = await search(fx.token.officer, { filter: "actor:me AND action:bb.auth.login" });
    assert.equal(ownSignIn.body.auditLogs?.length, 1, "the officer's sign-in is recorded under its name");
    assert.equal(ownSignIn.body.auditLogs?.[0]?.actor, "users/officer");
  });

  it("refuses an unknown field, a bad operator or value with invalid_argument naming what is accepted", async () => {
    const cases: [string, RegExp][] = [
      ["owner:alice", /^unknown filter field "owner"; supported: action, actor, actor_ip, correlation_id, create_time, method, resource, severity, status$/],
      ["action > bb.x", /operator ">" is not supported for field "action"/],
      ["severity:LOUD", /invalid value "LOUD" for field "severity"; accepted: INFO, WARNING, ERROR, CRITICAL/],
      ["status:fine", /invalid value "fine" for field "status"; accepted: ok, canceled/],
      [`create_time > "yesterday"`, /invalid time "yesterday" for field "create_time"/],
      ["actor:users/", /filter actor "users\/": "" is not a valid login id/],
      ["actor:", /expected a value after "actor:"/],
    ];
    for (const [filter, message] of cases) {
      for (const reply of [await list(fx.token.auditor, { filter }), await search(fx.token.auditor, { filter })]) {
        assert.equal(reply.status, 400, filter);
        assert.equal(reply.body.code, "invalid_argument", filter);
        assert.match(reply.body.message ?? "", message, filter);
      }
    }
    const order = await list(fx.token.auditor, { orderBy: "update_time desc" });
    assert.equal(order.status, 400);
    assert.equal(order.body.message, `unknown order_by field "update_time"; supported: create_time`);
  });

  it("orders newest first by default and oldest first on create_time asc, ties by id", async () => {
    const newest = await search(fx.token.auditor, { filter: SEEDED, pageSize: 100 });
    const explicit = await search(fx.token.auditor, { filter: SEEDED, pageSize: 100, orderBy: "create_time desc" });
    const oldest = await list(fx.token.auditor, { filter: SEEDED, pageSize: 100, orderBy: "createTime asc" });
    const bare = await list(fx.token.auditor, { filter: SEEDED, pageSize: 100, order_by: "create_time" });
    assert.deepEqual(namesOf(newest), expected(() => true));
    assert.deepEqual(namesOf(explicit), namesOf(newest));
    assert.deepEqual(namesOf(oldest), [...names]);
    assert.deepEqual(namesOf(bare), [...names], "no direction means ascending (AIP-132)");
  });

  it("pages by keyset: every record once, in order, at any page size", async () => {
    for (const [orderBy, all] of [["create_time desc", expected(() => true)], ["create_time asc", [...names]]] as const) {
      for (const pageSize of [1, 7, 20, 39, 40]) {
        const seen: string[] = [];
        let pageToken = "";
        let pages = 0;
        do {
          const reply = await search(fx.token.auditor, { filter: SEEDED, orderBy, pageSize, pageToken });
          assert.equal(reply.status, 200, JSON.stringify(reply.body));
          assert.ok(namesOf(reply).length <= pageSize);
          seen.push(...(namesOf(reply) as string[]));
          pageToken = reply.body.nextPageToken ?? "";
          pages++;
        } while (pageToken);
        assert.deepEqual(seen, all, `${orderBy}, pages of ${pageSize}`);
        assert.equal(pages, Math.ceil(40 / pageSize), `${orderBy}, pages of ${pageSize}: no empty last page`);
      }
    }
  });

  it("neither repeats nor skips records while others are written between pages", async () => {
    const now = Date.now();
    const at = (ms: number) => new Date(now - 3_600_000 + ms).toISOString();
    for (const orderBy of ["create_time desc", "create_time asc"]) {
      const action = `bb.paging.${orderBy.replace(" ", "_")}`;
      const initial = await seedRecords(fx.app, Array.from({ length: 23 }, (_, i) => ({ create_time: at(i * 1000), actor: "system", action })));
      const rest = orderBy === "create_time desc" ? [...initial].reverse() : initial;
      const seen: string[] = [];
      const written: string[] = [];
      let pageToken = "";
      do {
        const reply = await list(fx.token.auditor, { filter: `action:${action}`, orderBy, pageSize: 5, pageToken });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        seen.push(...(namesOf(reply) as string[]));
        pageToken = reply.body.nextPageToken ?? "";
        // Newer records arrive between pages (as live calls write them).
        written.push(...(await seedRecords(fx.app, [{ actor: "system", action }])));
      } while (pageToken);
      assert.equal(new Set(seen).size, seen.length, `${orderBy}: no record twice`);
      assert.deepEqual(seen.slice(0, rest.length), rest, `${orderBy}: every record present at the start, in order`);
      if (orderBy === "create_time desc") assert.deepEqual(seen, rest, "newer records are ahead of a newest-first reader");
      else assert.deepEqual(seen.slice(rest.length), written.slice(0, seen.length - rest.length), "an oldest-first reader meets them at the end");
    }
  });

  it("binds page tokens to their query and refuses a malformed one", async () => {
    const first = await list(fx.token.auditor, { filter: `actor:alice AND ${SEEDED}`, pageSize: 2 });
    const token = first.body.nextPageToken!;
    assert.ok(token);
    const same = await search(fx.token.auditor, { filter: `actor:alice AND ${SEEDED}`, pageSize: 2, pageToken: token });
    assert.equal(same.status, 200, "List and Search tokens of one query are interchangeable");
    assert.deepEqual(namesOf(same), expected((s) => s.actor === "users/alice").slice(2, 4));
    const refusals: [Json, string][] = [
      [{ filter: `actor:bob AND ${SEEDED}`, pageToken: token }, "page_token does not belong to this query"],
      [{ filter: `actor:alice AND ${SEEDED}`, orderBy: "create_time asc", pageToken: token }, "page_token does not belong to this query"],
      [{ filter: `actor:alice AND ${SEEDED}`, pageToken: "not a token" }, "page_token is malformed"],
    ];
    const payload = JSON.parse(Buffer.from(token, "base64url").toString()) as { q: string; k: unknown[] };
    for (const k of [["yesterday", "1"], [payload.k[0], "1; drop table audit_log"], [payload.k[0]]]) {
      refusals.push([{ filter: `actor:alice AND ${SEEDED}`, pageToken: Buffer.from(JSON.stringify({ ...payload, k })).toString("base64url") }, "page_token is malformed"]);
    }
    for (const [body, message] of refusals) {
      const reply = await search(fx.token.auditor, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.deepEqual({ code: reply.body.code, message: reply.body.message }, { code: "invalid_argument", message });
    }
  });

  it("serves 50 records by default, clamps large page sizes to 5000 and refuses negative ones", async () => {
    const filter = `action:bb.bulk.test`;
    await adminQuery(
      `insert into audit_log (create_time, actor, action, severity)
       select timestamptz '2019-01-01' + g * interval '1 second', 'system', 'bb.bulk.test', 'INFO' from generate_series(1, 5003) g`,
      fx.app.database.url,
    );
    const byDefault = await list(fx.token.auditor, { filter });
    assert.equal(byDefault.body.auditLogs?.length, 50);
    assert.ok(byDefault.body.nextPageToken);
    const clamped = await search(fx.token.auditor, { filter, pageSize: 100_000 });
    assert.equal(clamped.status, 200);
    assert.equal(clamped.body.auditLogs?.length, 5000);
    const rest = await search(fx.token.auditor, { filter, pageSize: 5000, pageToken: clamped.body.nextPageToken });
    assert.equal(rest.body.auditLogs?.length, 3);
    assert.equal(rest.body.nextPageToken, undefined);
    for (const reply of [await list(fx.token.auditor, { filter, pageSize: -1 }), await search(fx.token.auditor, { filter, pageSize: -5 })]) {
      assert.equal(reply.status, 400);
      assert.deepEqual({ code: reply.body.code, message: reply.body.message }, { code: "invalid_argument", message: "page_size must not be negative" });
    }
  });

  it("lets the read-only auditor and the security officer search, and refuses a workspace member", async () => {
    for (const caller of ["auditor", "officer", "admin"] as const) {
      assert.equal((await list(fx.token[caller], { filter: SEEDED })).status, 200, caller);
      assert.equal((await search(fx.token[caller], { filter: SEEDED })).status, 200, caller);
    }
    const since = await lastAuditId(fx.app);
    for (const reply of [await list(fx.token.member, {}), await search(fx.token.member, {})]) {
      assert.equal(reply.status, 403);
      assert.deepEqual({ code: reply.body.code, message: reply.body.message }, { code: "permission_denied", message: "permission bb.auditLogs.search required on workspaces/-" });
    }
    const anonymous = await fx.rest<ListReply>("GET", "/v1/auditLogs");
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.code, "unauthenticated");
    const denied = await connect().listAuditLogs({}, as(fx.token.member)).catch((e: unknown) => ConnectError.from(e));
    assert.equal((denied as ConnectError).code, Code.PermissionDenied);
    assert.deepEqual(await recordsSince(fx.app, since, "bb.auditLogs.search"), [], "searches are reads: not audited");
  });

  it("serves the same search over Connect and gRPC as AuditLog messages", async () => {
    const filter = `actor:alice AND severity:WARNING AND ${SEEDED}`;
    const want = expected((s) => s.actor === "users/alice" && s.severity === "WARNING");
    assert.ok(want.length > 0);
    const grpc = createClient(AuditLogService, createGrpcTransport({ baseUrl: fx.app.baseUrl }));
    for (const reply of [
      await connect().listAuditLogs({ filter, pageSize: 100 }, as(fx.token.officer)),
      await connect().searchAuditLogs({ filter, pageSize: 100 }, as(fx.token.officer)),
      await grpc.searchAuditLogs({ filter, pageSize: 100 }, as(fx.token.officer)),
    ]) {
      assert.deepEqual(reply.auditLogs.map((log) => log.name), want);
      const log = reply.auditLogs[0]!;
      const i = names.indexOf(log.name);
      assert.equal(log.severity, AuditLog_Severity.WARNING);
      assert.equal(log.actor, "users/alice");
      assert.equal(log.resource, seeds[i]!.resource);
      assert.deepEqual(log.status && { code: log.status.code, message: log.status.message }, { code: seeds[i]!.status_code, message: seeds[i]!.status_message });
      assert.equal(log.latency?.nanos, (1500 + i) * 1000);
      assert.deepEqual(log.detail, { i });
      assert.equal(log.createTime?.seconds, BigInt((T0 + minuteOf(i) * 60_000) / 1000));
    }
    const bad = await connect().searchAuditLogs({ filter: "owner:x" }, as(fx.token.officer)).catch((e: unknown) => ConnectError.from(e));
    assert.equal((bad as ConnectError).code, Code.InvalidArgument);
  });
});
