// Hostile input on every RPC, from the descriptors (a new RPC or field is in
// the table by itself): a NUL in each string a request can hold, strings and
// lists over their limits, broken binary messages, broken base64 in a Connect
// GET, NUL and bad percent-encoding in REST paths, queries and bodies — over
// Connect (JSON and binary), gRPC, gRPC-Web and REST. Every answer is below
// 500, in the contract's error shape (§1.1), invalid_argument naming the
// field; every refused call of an audited RPC leaves its audit record.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { create, fromJson, toBinary, type DescMethod, type JsonObject } from "@bufbuild/protobuf";
import { methodOptions } from "../api/transport/method-options.ts";
import { restBindings, type RestBinding } from "../api/transport/rest/bindings.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { listTargets, NUL_TEXT, restUrl, stringTargets } from "./helpers/hostile-input.ts";
import { connectStreamCall, envelope, grpcCall, grpcWebCall, httpCall, type RawAnswer } from "./helpers/raw-rpc.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Form = "connect-json" | "connect-proto" | "grpc" | "grpc-web";
const FORMS: Form[] = ["connect-json", "connect-proto", "grpc", "grpc-web"];
const BROKEN_BINARY = new Uint8Array([0x08, 0x80, 0x80]); // field 1, a varint cut short

interface Expectation {
  /** What the refusal's message starts with (the field path), or contains. */
  startsWith?: string;
  includes?: string;
  /** Other client codes the call may answer instead (e.g. a GET on a method that takes POST only). */
  orCode?: string;
}

describe("hostile input on every RPC", () => {
  let app: TestApp;
  let token: string;
  let methods: DescMethod[];
  let bindings: RestBinding[];
  const problems: string[] = [];
  /** Correlation ids of refused calls of audited RPCs, each of which must leave a record. */
  const audited = new Map<string, string>();
  let sequence = 0;

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN, flags: ["--rate-limit-per-user", "0"] });
    token = await signInFirstAdmin(restClient(app.baseUrl));
    const services = app.services.filter((s) => s.typeName.startsWith("svc.v1."));
    methods = services.flatMap((s) => s.methods);
    bindings = restBindings(services);
  });
  after(() => app.close());

  /** Sends one hostile call and records what is wrong with its answer. */
  async function expectRefusal(label: string, method: DescMethod | undefined, send: (headers: Record<string, string>) => Promise<RawAnswer>, expected: Expectation) {
    const id = `hostile-${++sequence}`;
    const answer = await send({ authorization: `Bearer ${token}`, "x-correlation-id": id });
    const { error } = answer;
    const named = !error || (expected.startsWith ? error.message.startsWith(expected.startsWith) : error.message.includes(expected.includes ?? ""));
    if (answer.status >= 500) problems.push(`${label}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
    else if (!error) problems.push(`${label}: accepted (HTTP ${answer.status})`);
    else if (error.extraKeys.length > 0) problems.push(`${label}: error body not in the contract's shape (${error.extraKeys.join(", ")}): ${answer.text.slice(0, 200)}`);
    else if (error.code !== "invalid_argument" && error.code !== expected.orCode) problems.push(`${label}: ${error.code} ${error.message.slice(0, 200)}`);
    else if (error.code === "invalid_argument" && !named) problems.push(`${label}: the message does not name ${expected.startsWith ?? expected.includes}: ${error.message.slice(0, 200)}`);
    else if (method && methodOptions(method).auditAction && error.code === "invalid_argument") audited.set(id, label);
  }

  function send(form: Form, method: DescMethod, request: JsonObject | Uint8Array): (headers: Record<string, string>) => Promise<RawAnswer> {
    const url = `${app.baseUrl}/${method.parent.typeName}/${method.name}`;
    const bytes = request instanceof Uint8Array ? request : toBinary(method.input, fromJson(method.input, request));
    const stream = method.methodKind !== "unary";
    return (headers) => {
      if (form === "grpc") return grpcCall(app.baseUrl, `/${method.parent.typeName}/${method.name}`, headers, envelope(bytes));
      if (form === "grpc-web") return grpcWebCall(url, headers, envelope(bytes));
      const json = form === "connect-json";
      const body = json && !(request instanceof Uint8Array) ? Buffer.from(JSON.stringify(request)) : Buffer.from(bytes);
      const type = `application/${stream ? "connect+" : ""}${json ? "json" : "proto"}`;
      if (stream) return connectStreamCall(url, { ...headers, "content-type": type }, envelope(body));
      return httpCall(url, { method: "POST", headers: { ...headers, "content-type": type }, body: new Uint8Array(body) });
    };
  }

  const done = (what: string) => assert.deepEqual(problems.splice(0), [], what);

  it("refuses a NUL in every string of every request, naming the field (Connect JSON; binary, gRPC and gRPC-Web for one per RPC)", async () => {
    for (const method of methods) {
      const targets = stringTargets(method.input);
      for (const [i, target] of targets.entries()) {
        const path = target.path(NUL_TEXT);
        for (const form of i === 0 ? FORMS : (["connect-json"] as Form[])) {
          await expectRefusal(`${method.name} ${path} (${form})`, method, send(form, method, target.json(NUL_TEXT)), { startsWith: `${path}: ` });
        }
      }
    }
    done("NUL characters");
  });

  it("refuses strings and lists over their limits, each declared limit and one default per RPC", async () => {
    for (const method of methods) {
      const strings = stringTargets(method.input);
      for (const [i, target] of strings.entries()) {
        if (i > 0 && !target.declared) continue;
        const value = "x".repeat(target.maxLength + 1);
        const path = target.path(value);
        for (const form of i === 0 ? FORMS : (["connect-json"] as Form[])) {
          await expectRefusal(`${method.name} ${path} oversize (${form})`, method, send(form, method, target.json(value)), { startsWith: `${path}: too long` });
        }
      }
      for (const list of listTargets(method.input)) {
        await expectRefusal(`${method.name} ${list.path} too many`, method, send("connect-json", method, list.json(list.maxItems + 1)), { startsWith: `${list.path}: too many` });
      }
    }
    done("oversize values");
  });

  it("refuses a broken binary message in every binary form, and broken base64 in a Connect GET", async () => {
    for (const method of methods) {
      const broken = { includes: `not a valid binary ${method.input.typeName}` };
      for (const form of ["connect-proto", "grpc", "grpc-web"] as Form[]) {
        await expectRefusal(`${method.name} broken binary (${form})`, method, send(form, method, BROKEN_BINARY), broken);
      }
      if (method.methodKind !== "unary") continue;
      const get = `${app.baseUrl}/${method.parent.typeName}/${method.name}?connect=v1&encoding=proto&base64=1&message=%25%25%25`;
      await expectRefusal(`${method.name} broken base64 GET`, method, (headers) => httpCall(get, { headers }), { includes: "base64", orCode: "unimplemented" });
    }
    done("broken messages");
  });

  it("refuses values only the binary form can carry: a timestamp past year 9999, a NaN in a Struct", async () => {
    const createUser = methods.find((m) => m.name === "CreateUser")!;
    const late = create(createUser.input, { loginId: "late", user: { roles: [{ role: "roles/workspaceMember", expiresAt: { seconds: 10n ** 15n } }] } });
    for (const form of ["connect-proto", "grpc"] as Form[]) {
      await expectRefusal(`CreateUser year 31 million (${form})`, createUser, send(form, createUser, toBinary(createUser.input, late)), {
        startsWith: "user.roles[0].expires_at: not a timestamp",
      });
    }
    const updateSetting = methods.find((m) => m.name === "UpdateSetting")!;
    const nan = { value: { case: "environment", value: { environments: [{ id: "test", sqlReview: { rules: [{ type: "x", payload: { bytes: Number.NaN } }] } }] } } };
    const request = toBinary(updateSetting.input, create(updateSetting.input, { setting: { value: nan } } as never));
    await expectRefusal("UpdateSetting NaN payload", updateSetting, send("connect-proto", updateSetting, request), { includes: 'payload.fields["bytes"]: a number must be finite' });
    done("values the JSON form cannot carry");
  });

  it("refuses NUL and bad percent-encoding in REST paths, queries and bodies", async () => {
    for (const binding of bindings) {
      const call = (url: string, body?: unknown) => (headers: Record<string, string>) =>
        httpCall(`${app.baseUrl}${url}`, {
          method: binding.verb,
          headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const emptyBody = binding.bodyField ? {} : undefined;
      const label = `${binding.verb} ${binding.template}`;
      for (const [i, variable] of binding.compiled.variables.entries()) {
        const url = restUrl(binding, (v) => (v === i ? "a%00b" : "x"));
        await expectRefusal(`${label} NUL in {${variable.fieldPath}}`, binding.method, call(url, emptyBody), { startsWith: `${variable.fieldPath}: ` });
      }
      const badUrl = binding.compiled.variables.length > 0 ? restUrl(binding, (v) => (v === 0 ? "%ff" : "x")) : `${binding.template.split(":")[0]}%ff`;
      await expectRefusal(`${label} bad percent-encoding`, undefined, call(badUrl, emptyBody), { includes: "percent-encoding" });
      const target = restTarget(binding);
      if (!target) continue;
      const url = restUrl(binding, () => "x");
      const { path, body, query } = target;
      await expectRefusal(`${label} NUL in ${path}`, binding.method, call(query ? `${url}${url.includes("?") ? "&" : "?"}${query}` : url, body ?? emptyBody), {
        startsWith: `${path}: `,
      });
    }
    done("REST requests");
  });

  it("answers huge values with short errors, signed in or not (sign-up, password reset, a NUL in a long name)", async () => {
    const huge = "x".repeat(5 * 1024 * 1024);
    const calls: [string, string, unknown, string][] = [
      ["sign-up with a 5 MB title", "/v1/users?loginId=newcomer", { title: huge, email: "newcomer@example.com" }, "user.title: too long: 5242880 bytes"],
      ["a 5 MB e-mail", "/v1/auth:requestPasswordReset", { email: `${huge}@example.com` }, "email: too long: 5242892 bytes"],
      ["a NUL in a 1000-character login id", "/v1/auth/login", { loginId: `${"y".repeat(1000)}\u0000`, password: "x" }, `login_id: "${"y".repeat(64)}…" (1001 characters) contains a NUL`],
    ];
    for (const [label, path, body, message] of calls) {
      const answer = await httpCall(`${app.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      assert.equal(answer.status, 400, label);
      assert.ok(answer.text.length < 300, `${label}: an error body of ${answer.text.length} characters`);
      assert.ok(answer.error?.message.startsWith(message), `${label}: ${answer.error?.message}`);
    }
  });

  it("refuses page tokens edited into another key shape (ListProjects, ListUsers)", async () => {
    const rest = restClient(app.baseUrl);
    await rest("POST", "/v1/projects?projectId=paged-one", { token, body: {} });
    await rest("POST", "/v1/projects?projectId=paged-two", { token, body: {} });
    await makeUser(app.db, "paged-user");
    for (const list of ["/v1/projects", "/v1/users"]) {
      const first = await rest<{ nextPageToken: string }>("GET", `${list}?pageSize=1`, { token });
      const payload = JSON.parse(Buffer.from(first.body.nextPageToken, "base64url").toString()) as { q: string; k: unknown[] };
      for (const k of [["x", "y"], ["a\u0000b"], [1e300, "p"], ["2026-02-31T00:00:00Z", "p"], ["NaN"], []]) {
        const edited = Buffer.from(JSON.stringify({ ...payload, k })).toString("base64url");
        await expectRefusal(`${list} page token ${JSON.stringify(k)}`, undefined, (headers) => httpCall(`${app.baseUrl}${list}?pageSize=1&pageToken=${edited}`, { headers }), {
          startsWith: "page_token is malformed",
        });
      }
    }
    done("edited page tokens");
  });

  it("recorded every refused call of an audited RPC in the audit log", async () => {
    const ids = [...audited.keys()];
    assert.ok(ids.length > 100, `only ${ids.length} audited refusals were sent`);
    const rows = await adminQuery(`select distinct correlation_id from audit_log where correlation_id like 'hostile-%'`, app.database.url);
    const recorded = new Set(rows.rows.map((r: { correlation_id: string }) => r.correlation_id));
    assert.deepEqual(ids.filter((id) => !recorded.has(id)).map((id) => audited.get(id)), []);
  });
});

/** A string of the request a REST call sets outside its path: in the body when it has one, else as a query parameter. */
function restTarget(binding: RestBinding): { path: string; body?: unknown; query?: string } | undefined {
  const bound = new Set(binding.compiled.variables.map((v) => v.fieldPath));
  const bodyField = binding.method.input.fields.find((f) => f.name === binding.bodyField);
  for (const target of stringTargets(binding.method.input)) {
    const path = target.path(NUL_TEXT);
    if (bound.has(path)) continue;
    if (binding.bodyField === "*") return { path, body: target.json(NUL_TEXT) };
    if (bodyField && path.startsWith(`${bodyField.name}.`)) return { path, body: target.json(NUL_TEXT)[bodyField.jsonName] };
    if (!binding.bodyField && /^[a-z_]+$/.test(path)) return { path, query: `${path}=a%00b` };
  }
  return undefined;
}
