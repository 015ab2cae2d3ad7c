// Every audited call leaves its record whatever its input (contract §8.1,
// §8.2): NUL, lone surrogates, 1 MiB names and login ids, bodies of
// megabytes and an 8 KiB user agent, through REST and Connect, refused and
// accepted alike, signed in or not. Each call answers without a 5xx and
// leaves exactly one record of its own, whose columns are bounded and
// escaped (decision 0072), and a search by the stored values finds it.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { boundedText, COLUMN_CHARS, PAYLOAD_CHARS, STRING_CHARS } from "../shared/governance/audit/audit-bounds.ts";
import { type AuditApp, type Caller, startAuditApp } from "./helpers/audit.ts";
import { adminQuery } from "./helpers/db.ts";

const MiB = 1 << 20;
const NUL_USER = "users/ad\0min";
const HUGE_USER = `users/${"a".repeat(MiB)}`;
const SURROGATE_USER = "users/ad\ud800min";
/** Sent with every call: 8 KiB, with a byte outside ASCII. */
const HOSTILE_AGENT = `hostile/1.0 ${"x".repeat(8 * 1024)} \u00ff`;
/** The longest marker a cut value carries: `…[truncated from <n> bytes; sha256 <64 hex>]`. */
const MARKER_CHARS = "…[truncated from 99999999 bytes; sha256 ]".length + 64;

interface Rpc {
  /** The Connect path, e.g. svc.v1.UserService/DeleteUser. */
  method: string;
  connectBody: unknown;
  /** The same call over REST, where its input fits a REST request. */
  rest?: { verb: string; path: string; body?: unknown };
  /** Server-streaming (an export): its record is written when the stream ends. */
  stream?: boolean;
}

interface HostileCase {
  title: string;
  caller: Caller | "anonymous";
  rpc: (form: Form) => Rpc;
  /** The actions the call's own record may carry (a sign-in's names its outcome). */
  actions: string[];
  /** What the record's resource or actor is the stored form of. */
  names: { resource?: string; actor?: string };
}

type Form = "rest" | "connect";

const login = (loginId: string): Rpc => {
  const body = { loginId, password: "Not-The-Password-1" };
  return { method: "svc.v1.AuthService/Login", connectBody: body, rest: { verb: "POST", path: "/v1/auth/login", body } };
};
const deleteUser = (name: string, restPath?: string): Rpc => ({
  method: "svc.v1.UserService/DeleteUser",
  connectBody: { name },
  rest: restPath === undefined ? undefined : { verb: "DELETE", path: restPath },
});
const createProject = (id: string, project: Record<string, unknown>): Rpc => ({
  method: "svc.v1.ProjectService/CreateProject",
  connectBody: { projectId: id, project },
  rest: { verb: "POST", path: `/v1/projects?projectId=${id}`, body: project },
});
const signUp = (loginId: string, user: Record<string, unknown>): Rpc => ({
  method: "svc.v1.UserService/CreateUser",
  connectBody: { loginId, user },
  rest: { verb: "POST", path: `/v1/users?loginId=${loginId}`, body: user },
});
const exportLogs = (filter: string): Rpc => ({
  method: "svc.v1.AuditLogService/ExportAuditLogs",
  connectBody: { filter, format: "CSV" },
  rest: { verb: "POST", path: "/v1/auditLogs:export", body: { filter, format: "CSV" } },
  stream: true,
});

const LOGIN = ["bb.auth.login", "bb.auth.login.fail"];

const CASES: HostileCase[] = [
  { title: "DeleteUser of a name holding NUL, by a member", caller: "member", rpc: () => deleteUser(NUL_USER, "/v1/users/ad%00min"), actions: ["bb.users.delete"], names: { resource: NUL_USER } },
  { title: "DeleteUser of a 1 MiB name, by a member", caller: "member", rpc: () => deleteUser(HUGE_USER), actions: ["bb.users.delete"], names: { resource: HUGE_USER } },
  { title: "DeleteUser of a name holding a lone surrogate, by a member", caller: "member", rpc: () => deleteUser(SURROGATE_USER), actions: ["bb.users.delete"], names: {} },
  { title: "sign-in with a login id holding NUL", caller: "anonymous", rpc: () => login("ad\0min"), actions: LOGIN, names: { actor: NUL_USER } },
  { title: "sign-in with a 1 MiB login id", caller: "anonymous", rpc: () => login(HUGE_USER.slice("users/".length)), actions: LOGIN, names: { actor: HUGE_USER } },
  { title: "sign-in with a login id holding a lone surrogate", caller: "anonymous", rpc: () => login("ad\ud800min"), actions: LOGIN, names: {} },
  { title: "sign-up with a 5 MiB title", caller: "anonymous", rpc: (form) => signUp(`big-title-${form}`, { title: "t".repeat(5 * MiB), password: "Correct-Horse-9-Battery" }), actions: ["bb.users.create"], names: {} },
  { title: "CreateProject with a title holding NUL", caller: "admin", rpc: (form) => createProject(`nul-title-${form}`, { title: "x\0y" }), actions: ["bb.projects.create"], names: {} },
  { title: "CreateProject with a title holding a lone surrogate", caller: "admin", rpc: (form) => createProject(`surrogate-${form}`, { title: "x\udc00y" }), actions: ["bb.projects.create"], names: {} },
  { title: "CreateProject with a 5 MiB title", caller: "admin", rpc: (form) => createProject(`huge-title-${form}`, { title: "p".repeat(5 * MiB) }), actions: ["bb.projects.create"], names: {} },
  { title: "ExportAuditLogs with a filter holding NUL", caller: "auditor", rpc: () => exportLogs('resource:"projects/\0"'), actions: ["bb.auditLogs.export"], names: {} },
  { title: "ExportAuditLogs with a lone surrogate in the filter", caller: "auditor", rpc: () => exportLogs('resource:"projects/\ud800"'), actions: ["bb.auditLogs.export"], names: {} },
  { title: "ExportAuditLogs with a 1 MiB filter", caller: "auditor", rpc: () => exportLogs(`resource:"${"r".repeat(MiB)}"`), actions: ["bb.auditLogs.export"], names: {} },
];

interface StoredRow extends Record<string, string> {
  id: string;
  actor: string;
  resource: string;
  method: string;
  status_code: string;
  status_message: string;
  request: string;
  detail: string;
}

describe("audit records of hostile input", () => {
  let fx: AuditApp;
  before(async () => {
    fx = await startAuditApp();
  });
  after(() => fx.app.close());

  let sequence = 0;
  const send = async (rpc: Rpc, form: Form, caller: HostileCase["caller"]): Promise<{ status: number; correlationId: string }> => {
    const correlationId = `hostile-${++sequence}-${form}`;
    const headers: Record<string, string> = { "x-correlation-id": correlationId, "user-agent": HOSTILE_AGENT };
    if (caller !== "anonymous") headers["authorization"] = `Bearer ${fx.token[caller]}`;
    const { url, init } = form === "rest" ? restRequest(rpc, headers) : connectRequest(rpc, headers);
    const res = await fetch(`${fx.app.baseUrl}${url}`, init);
    await res.arrayBuffer();
    return { status: res.status, correlationId };
  };

  /** The call's own records: further ones it adds (bb.role.assign for a new user) carry other actions. */
  const recordsOf = async (correlationId: string, actions: string[]): Promise<StoredRow[]> => {
    const query = `select id::text, actor, actor_ip, user_agent, action, method, resource, status_code, status_message, correlation_id,
                          request, response, detail::text as detail
                   from audit_log where correlation_id = '${correlationId}' and action in (${actions.map((a) => `'${a}'`).join(", ")})
                   order by id`;
    return (await adminQuery(query, fx.app.database.url)).rows as StoredRow[];
  };

  /** A stream's record is written as its response ends: wait a moment for it. */
  const awaitRecords = async (correlationId: string, actions: string[]): Promise<StoredRow[]> => {
    for (let tries = 0; ; tries++) {
      const rows = await recordsOf(correlationId, actions);
      if (rows.length > 0 || tries === 50) return rows;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const search = async (filter: string) => {
    const reply = await fx.rest<{ auditLogs?: { name: string }[] }>("POST", "/v1/auditLogs:search", { token: fx.token.auditor, body: { filter } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return (reply.body.auditLogs ?? []).map((log) => log.name);
  };

  for (const hostile of CASES) {
    for (const form of ["rest", "connect"] as const) {
      const rpc = hostile.rpc(form);
      if (form === "rest" && !rpc.rest) continue;
      it(`${hostile.title} (${form}): answered without a 5xx, recorded once, bounded and found`, async () => {
        const { status, correlationId } = await send(rpc, form, hostile.caller);
        assert.ok(status < 500, `answered ${status}`);
        const rows = await awaitRecords(correlationId, hostile.actions);
        assert.equal(rows.length, 1, `records of the call: ${rows.length}`);
        const row = rows[0]!;
        assertBounded(row);
        for (const [column, given] of Object.entries({ ...hostile.names, user_agent: HOSTILE_AGENT })) assertStoredForm(row[column]!, given);
        const byValue = hostile.names.resource ? `resource = ${quoted(row.resource)}` : `actor = ${quoted(row.actor)}`;
        assert.deepEqual(await search(`correlation_id:${correlationId} AND action:${row.action} AND ${byValue}`), [`auditLogs/${row.id}`]);
      });
    }
  }

  it("finds a cut resource by the whole value, by the stored value and by prefix", async () => {
    const name = `users/${"long-name-".repeat(60)}`;
    const { status, correlationId } = await send(deleteUser(name), "connect", "member");
    assert.equal(status, 403);
    const [row] = await recordsOf(correlationId, ["bb.users.delete"]);
    assert.ok(row);
    assert.equal(row.resource, boundedText(name, COLUMN_CHARS));
    const found = [`auditLogs/${row.id}`];
    assert.deepEqual(await search(`correlation_id:${correlationId} AND resource = ${quoted(name)}`), found);
    assert.deepEqual(await search(`correlation_id:${correlationId} AND resource = ${quoted(row.resource)}`), found);
    assert.deepEqual(await search(`correlation_id:${correlationId} AND resource:${quoted(name.slice(0, 40))}`), found);
    assert.deepEqual(await search(`correlation_id:${correlationId} AND resource:${quoted(name + "more")}`), found, "a prefix is read up to the length a column keeps");
    assert.deepEqual(await search(`correlation_id:${correlationId} AND resource != ${quoted(name)}`), []);
  });

  it("records a request that cannot be decoded as refused, with its caller and without the request", async () => {
    for (const form of ["rest", "connect"] as const) {
      const { status, correlationId } = await send(createProject(`undecodable-${form}`, { title: "x\ud800" }), form, "admin");
      assert.equal(status, 400);
      const [row, ...more] = await recordsOf(correlationId, ["bb.projects.create"]);
      assert.equal(more.length, 0);
      assert.equal(row?.actor, "users/admin");
      assert.equal(row.method, "/svc.v1.ProjectService/CreateProject");
      assert.equal(row.status_code, "invalid_argument");
      assert.match(row.status_message, /title/);
      assert.equal(row.request, "");
    }
    const project = await fx.rest("GET", "/v1/projects/undecodable-rest", { token: fx.token.admin });
    assert.equal(project.status, 404, "nothing was created");
  });

  it("finds a refused sign-in by the login id it tried, escaped", async () => {
    const { correlationId } = await send(login("eve\0"), "rest", "anonymous");
    const [row] = await recordsOf(correlationId, LOGIN);
    assert.equal(row?.actor, "users/eve\\u0000");
    for (const actor of ["users/eve\\u0000", "eve\\u0000"]) {
      assert.deepEqual(await search(`correlation_id:${correlationId} AND actor:${quoted(actor)}`), [`auditLogs/${row.id}`], actor);
    }
  });
});

function restRequest(rpc: Rpc, headers: Record<string, string>): { url: string; init: RequestInit } {
  const rest = rpc.rest!;
  const body = rest.body === undefined ? undefined : JSON.stringify(rest.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  return { url: rest.path, init: { method: rest.verb, headers, body } };
}

/** Connect's JSON form; a server stream's request is one enveloped message. */
function connectRequest(rpc: Rpc, headers: Record<string, string>): { url: string; init: RequestInit } {
  const json = Buffer.from(JSON.stringify(rpc.connectBody));
  if (!rpc.stream) return { url: `/${rpc.method}`, init: { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: json } };
  const envelope = Buffer.alloc(5);
  envelope.writeUInt32BE(json.length, 1);
  const body = Buffer.concat([envelope, json]);
  return { url: `/${rpc.method}`, init: { method: "POST", headers: { ...headers, "content-type": "application/connect+json" }, body } };
}

/** Every column within its bound: short columns fit an index entry, payloads stay small. */
function assertBounded(row: StoredRow): void {
  for (const column of ["actor", "actor_ip", "user_agent", "action", "method", "resource", "status_code", "correlation_id"]) {
    assert.ok(row[column]!.length <= COLUMN_CHARS + MARKER_CHARS, `${column}: ${row[column]!.length} characters`);
    assert.ok(Buffer.byteLength(row[column]!) < 2704, `${column} fits a btree entry`);
  }
  assert.ok(row.status_message.length <= STRING_CHARS + MARKER_CHARS, `status_message: ${row.status_message.length} characters`);
  for (const column of ["request", "response", "detail"]) {
    assert.ok(row[column]!.length <= PAYLOAD_CHARS + 2 * MARKER_CHARS, `${column}: ${row[column]!.length} characters`);
  }
  assert.ok(!/\\u0000|\\ud[89a-f]/i.test(row.request.replaceAll("\\\\", "")), "no NUL or lone surrogate is kept as such");
}

/** The stored text of a hostile value: escaped, and over the column's bound cut with the whole's size and hash. */
function assertStoredForm(stored: string, given: string): void {
  const escaped = given.replaceAll("\0", "\\u0000").replaceAll("\ud800", "\\ud800");
  if (escaped.length <= COLUMN_CHARS) {
    assert.equal(stored, escaped);
    return;
  }
  const sha256 = createHash("sha256").update(escaped).digest("hex");
  assert.equal(stored, `${escaped.slice(0, COLUMN_CHARS)}…[truncated from ${Buffer.byteLength(escaped)} bytes; sha256 ${sha256}]`);
}

/** A filter value in double quotes (contract §2.3). */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
