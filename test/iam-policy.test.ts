// The workspace IAM policy (contract §0.7, §1.3, §6.4, §8.1): read and
// replaced as a whole under an etag, validated field by field, guarded so an
// active administrator remains, effective on the very next request, audited
// per (member, role) change, and safe under concurrent writers.
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { WorkspaceService } from "../shared/gen/svc/v1/workspace_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Binding = { role: string; members: string[]; condition?: { expression: string; title?: string }; expired?: boolean };
type Policy = { bindings: Binding[]; etag: string; code?: string; message?: string };
type AuditRow = { actor: string; action: string; resource: string; status_code: string; detail: Record<string, unknown> };

const DAY = 86_400_000;
const ADMIN_BINDING: Binding = { role: "roles/workspaceAdmin", members: ["user:login_id=admin"] };
const bind = (role: string, ...logins: string[]): Binding => ({ role: `roles/${role}`, members: logins.map((l) => (l === "allUsers" ? l : `user:login_id=${l}`)) });
const expiresIn = (ms: number) => `request.time < timestamp("${new Date(Date.now() + ms).toISOString()}")`;
const DENIED_GET = "permission bb.workspaces.getIamPolicy required on workspaces/-";
const DENIED_SET = "permission bb.workspaces.setIamPolicy required on workspaces/-";

describe("workspace IAM policy", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token: Record<"admin" | "bob" | "carol", string> = { admin: "", bob: "", carol: "" };

  const getPolicy = (as: string) => rest<Policy>("GET", "/v1/workspaces/-:getIamPolicy", { token: as });
  const setPolicy = (as: string, body: unknown) => rest<Policy>("POST", "/v1/workspaces/-:setIamPolicy", { token: as, body });
  /** An unconditional write by the admin that must succeed. */
  const write = async (...bindings: Binding[]) => {
    const reply = await setPolicy(token.admin, { policy: { bindings } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };
  const stored = async () => (await adminQuery(`select bindings, etag from iam_policy where scope = 'workspaces/-'`, app.database.url)).rows[0] as Policy;
  const lastAuditId = async () => Number((await adminQuery(`select coalesce(max(id), 0) as id from audit_log`, app.database.url)).rows[0].id);
  const auditSince = async (id: number) =>
    (await adminQuery(`select actor, action, resource, status_code, detail from audit_log where id > ${id} order by id`, app.database.url)).rows as AuditRow[];
  const roleChanges = (rows: AuditRow[]) =>
    rows.filter((r) => r.action.startsWith("bb.role.")).map((r) => `${r.action} ${r.resource} ${r.detail.member} ${r.detail.role}`).sort();
  const statusOf = async (as: string) => (await getPolicy(as)).status;
  /** Stores bindings behind the API's back (conditions need all three fields there). */
  const storeBindings = (...bindings: Binding[]) => {
    const json = JSON.stringify(bindings.map((b) => (b.condition ? { ...b, condition: { title: "", description: "", ...b.condition } } : b)));
    return adminQuery(`update iam_policy set bindings = '${json}', etag = md5(random()::text) where scope = 'workspaces/-'`, app.database.url);
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    await makeUser(app.db, "bob");
    await makeUser(app.db, "carol");
    // Before the first request, so that no cached WORKSPACE_PROFILE hides it.
    await mergeWorkspaceProfile(app, { maximumRoleExpiration: "7d" });
    token.admin = await signInFirstAdmin(rest);
    token.bob = await signIn(rest, "bob");
    token.carol = await signIn(rest, "carol");
  });
  after(() => app.close());
  afterEach(() => storeBindings(ADMIN_BINDING));

  it("returns the bootstrap binding and an etag, and refuses a caller without a binding", async () => {
    const reply = await getPolicy(token.admin);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body.bindings, [ADMIN_BINDING]);
    assert.equal(reply.body.etag, (await stored()).etag);
    assert.match(reply.body.etag, /^\S{8,}$/);
    const denied = await getPolicy(token.bob);
    assert.equal(denied.status, 403);
    assert.deepEqual({ code: denied.body.code, message: denied.body.message }, { code: "permission_denied", message: DENIED_GET });
  });

  it("replaces the whole binding set under the etag, canonicalising members", async () => {
    const { etag: e0 } = (await getPolicy(token.admin)).body;
    const first = await setPolicy(token.admin, { policy: { bindings: [ADMIN_BINDING, bind("workspaceMember", "BOB", "carol")], etag: e0 } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.notEqual(first.body.etag, e0);
    assert.deepEqual(first.body.bindings, [ADMIN_BINDING, bind("workspaceMember", "bob", "carol")]);
    assert.deepEqual(await stored(), { bindings: first.body.bindings, etag: first.body.etag });

    const second = await setPolicy(token.admin, { policy: { bindings: [ADMIN_BINDING, bind("readOnlyAuditor", "carol")] }, etag: first.body.etag });
    assert.equal(second.status, 200, "the etag may travel beside the policy");
    assert.deepEqual((await getPolicy(token.admin)).body, { bindings: [ADMIN_BINDING, bind("readOnlyAuditor", "carol")], etag: second.body.etag });

    for (const body of [{ policy: { bindings: [ADMIN_BINDING], etag: e0 } }, { policy: { bindings: [ADMIN_BINDING] }, etag: first.body.etag }]) {
      const stale = await setPolicy(token.admin, body);
      assert.equal(stale.status, 409);
      assert.equal(stale.body.code, "aborted");
    }
    assert.equal((await stored()).etag, second.body.etag, "a stale write changes nothing");

    const unconditional = await write(ADMIN_BINDING);
    assert.deepEqual(unconditional.bindings, [ADMIN_BINDING]);
    assert.notEqual(unconditional.etag, second.body.etag);
  });

  it("serves the policy over Connect and gRPC with the same rules", async () => {
    const connect = createClient(WorkspaceService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const grpc = createClient(WorkspaceService, createGrpcTransport({ baseUrl: app.baseUrl }));
    const as = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
    const read = await connect.getWorkspaceIamPolicy({}, as(token.admin));
    assert.equal(read.etag, (await stored()).etag);
    const written = await grpc.setWorkspaceIamPolicy({ policy: { bindings: [ADMIN_BINDING, bind("workspaceMember", "BOB")] }, etag: read.etag }, as(token.admin));
    assert.deepEqual(written.bindings.map((b) => [b.role, b.members]), [[ADMIN_BINDING.role, ADMIN_BINDING.members], ["roles/workspaceMember", ["user:login_id=bob"]]]);
    assert.equal(written.etag, (await stored()).etag);
    const stale = await connect.setWorkspaceIamPolicy({ policy: { bindings: [ADMIN_BINDING], etag: read.etag } }, as(token.admin)).catch((e: unknown) => e);
    assert.equal(ConnectError.from(stale).code, Code.Aborted);
    const denied = await grpc.getWorkspaceIamPolicy({}, as(token.bob)).catch((e: unknown) => e);
    assert.equal(ConnectError.from(denied).code, Code.PermissionDenied);
    assert.equal(ConnectError.from(denied).rawMessage, DENIED_GET);
  });

  it("refuses invalid bindings with invalid_argument naming the field, and stores nothing", async () => {
    const before = await stored();
    const cases: [string, Binding, RegExp][] = [
      ["unknown role", bind("nope", "bob"), /^policy\.bindings\[1\]\.role: unknown role "roles\/nope"/],
      ["malformed member", { role: "roles/workspaceMember", members: ["bob"] }, /^policy\.bindings\[1\]\.members\[0\]: .*accepted shapes/],
      ["unknown user", bind("workspaceMember", "ghost"), /^policy\.bindings.*"ghost"/],
      ["group member", { role: "roles/workspaceMember", members: ["group:dbas"] }, /^policy\.bindings\[1\]\.members\[0\]: group "dbas" does not exist/],
      ["empty members", { role: "roles/workspaceMember", members: [] }, /^policy\.bindings\[1\]\.members: .*at least one member/],
      ["unsupported condition", { ...bind("workspaceMember", "bob"), condition: { expression: `resource.name == "x"` } }, /^policy\.bindings\[1\]\.condition\.expression: unsupported condition/],
      ["past expiry", { ...bind("workspaceMember", "bob"), condition: { expression: expiresIn(-DAY) } }, /^policy\.bindings\[1\]\.condition\.expression: .*already passed/],
      ["expiry beyond 7d", { ...bind("workspaceMember", "bob"), condition: { expression: expiresIn(8 * DAY) } }, /^policy\.bindings\[1\]\.condition\.expression: .*maximum_role_expiration/],
    ];
    for (const [label, binding, message] of cases) {
      const reply = await setPolicy(token.admin, { policy: { bindings: [ADMIN_BINDING, binding] } });
      assert.equal(reply.status, 400, label);
      assert.equal(reply.body.code, "invalid_argument", label);
      assert.match(String(reply.body.message), message, label);
    }
    assert.deepEqual(await stored(), before);
    const withinMaximum = { ...bind("workspaceMember", "bob"), condition: { expression: expiresIn(6 * DAY) } };
    assert.deepEqual((await write(ADMIN_BINDING, withinMaximum)).bindings, [ADMIN_BINDING, withinMaximum], "the same binding within the maximum is accepted");
  });

  it("keeps an active workspace administrator", async () => {
    const before = await stored();
    for (const bindings of [[], [bind("workspaceMember", "admin", "bob")], [bind("workspaceDBA", "admin")]]) {
      const reply = await setPolicy(token.admin, { policy: { bindings } });
      assert.equal(reply.status, 400, JSON.stringify(bindings));
      assert.equal(reply.body.code, "failed_precondition");
      assert.match(String(reply.body.message), /active user bound to roles\/workspaceAdmin/);
    }
    assert.deepEqual(await stored(), before);
    assert.deepEqual((await write(bind("workspaceAdmin", "bob"))).bindings, [bind("workspaceAdmin", "bob")], "another active admin is enough");
    assert.equal(await statusOf(token.admin), 403);
  });

  it("acts on the next request: grants, revocations and allUsers", async () => {
    await write(ADMIN_BINDING, bind("readOnlyAuditor", "bob"));
    assert.equal(await statusOf(token.bob), 200, "readOnlyAuditor grants getIamPolicy");
    const set = await setPolicy(token.bob, { policy: { bindings: [ADMIN_BINDING] } });
    assert.equal(set.status, 403);
    assert.equal(set.body.message, DENIED_SET);
    await write(ADMIN_BINDING);
    assert.equal(await statusOf(token.bob), 403, "revoked on his next request");

    const carolOf = (as: string) => rest("GET", "/v1/users/carol", { token: as });
    assert.equal((await carolOf(token.bob)).status, 403);
    await write(ADMIN_BINDING, bind("workspaceMember", "bob"));
    assert.equal((await carolOf(token.bob)).status, 200, "workspaceMember grants users.get");
    assert.equal(await statusOf(token.bob), 403, "but not workspaces.getIamPolicy");

    await write(ADMIN_BINDING, bind("readOnlyAuditor", "allUsers"));
    assert.deepEqual([await statusOf(token.bob), await statusOf(token.carol)], [200, 200]);
    await write(ADMIN_BINDING);
    assert.deepEqual([await statusOf(token.bob), await statusOf(token.carol)], [403, 403]);
  });

  it("grants an expiring binding until its time, then shows it expired and grants nothing", async () => {
    const expiring = { ...bind("readOnlyAuditor", "bob"), condition: { expression: expiresIn(DAY), title: "one day" } };
    assert.deepEqual((await write(ADMIN_BINDING, expiring)).bindings, [ADMIN_BINDING, expiring]);
    assert.equal(await statusOf(token.bob), 200);
    const past = { ...expiring, condition: { ...expiring.condition, expression: expiresIn(-60_000) } };
    await storeBindings(ADMIN_BINDING, past);
    assert.equal(await statusOf(token.bob), 403);
    assert.deepEqual((await getPolicy(token.admin)).body.bindings, [ADMIN_BINDING, { ...past, expired: true }]);
  });

  it("accepts writing back an unchanged expired binding (clarification 3)", async () => {
    await storeBindings(ADMIN_BINDING, { ...bind("readOnlyAuditor", "bob"), condition: { expression: expiresIn(-60_000) } });
    const shown = (await getPolicy(token.admin)).body;
    const back = await setPolicy(token.admin, { policy: { bindings: [...shown.bindings, bind("workspaceMember", "carol")], etag: shown.etag } });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.deepEqual(back.body.bindings, [...shown.bindings, bind("workspaceMember", "carol")]);
  });

  it("audits each write and each (member, role) change; a refusal leaves only its own record", async () => {
    let mark = await lastAuditId();
    await write(ADMIN_BINDING, bind("workspaceMember", "bob", "carol"));
    await write(ADMIN_BINDING, bind("readOnlyAuditor", "BOB"));
    const rows = await auditSince(mark);
    assert.deepEqual(
      rows.filter((r) => r.action === "bb.workspaces.setIamPolicy").map((r) => [r.actor, r.resource, r.status_code]),
      [["users/admin", "workspaces/-", "ok"], ["users/admin", "workspaces/-", "ok"]],
    );
    assert.deepEqual(roleChanges(rows), [
      "bb.role.assign workspaces/- user:login_id=bob roles/readOnlyAuditor",
      "bb.role.assign workspaces/- user:login_id=bob roles/workspaceMember",
      "bb.role.assign workspaces/- user:login_id=carol roles/workspaceMember",
      "bb.role.revoke workspaces/- user:login_id=bob roles/workspaceMember",
      "bb.role.revoke workspaces/- user:login_id=carol roles/workspaceMember",
    ]);
    assert.ok(rows.filter((r) => r.action.startsWith("bb.role.")).every((r) => r.actor === "users/admin"));

    mark = await lastAuditId();
    assert.equal((await setPolicy(token.admin, { policy: { bindings: [ADMIN_BINDING, bind("workspaceMember", "carol")] }, etag: "stale" })).status, 409);
    assert.equal((await setPolicy(token.carol, { policy: { bindings: [ADMIN_BINDING, bind("workspaceAdmin", "carol")] } })).status, 403);
    const refused = await auditSince(mark);
    assert.deepEqual(roleChanges(refused), [], "a refused write assigns and revokes nothing");
    assert.deepEqual(
      refused.map((r) => [r.actor, r.action, r.resource, r.status_code]),
      [
        ["users/admin", "bb.workspaces.setIamPolicy", "workspaces/-", "aborted"],
        ["users/carol", "bb.workspaces.setIamPolicy", "workspaces/-", "permission_denied"],
      ],
    );
  });

  it("refuses a write by an administrator whose password change is pending, and records the refusal (§1.3, §8.2)", async () => {
    await write(ADMIN_BINDING, bind("workspaceAdmin", "carol"));
    await adminQuery(`update principal set require_reset_password = true where login_id = 'carol'`, app.database.url);
    try {
      const mark = await lastAuditId();
      const refused = await setPolicy(token.carol, { policy: { bindings: [ADMIN_BINDING] } });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, "permission_denied");
      assert.match(String(refused.body.message), /^password change required/);
      const rows = await auditSince(mark);
      assert.deepEqual(rows.map((r) => [r.actor, r.action, r.status_code]), [["users/carol", "bb.workspaces.setIamPolicy", "permission_denied"]]);
      assert.deepEqual((await stored()).bindings, [ADMIN_BINDING, bind("workspaceAdmin", "carol")], "nothing changed");
    } finally {
      await adminQuery(`update principal set require_reset_password = false where login_id = 'carol'`, app.database.url);
    }
  });

  it("grants a role CreateUser lists twice (in any case, with the same expiry) once, with one record (§6.5)", async () => {
    const expiresAt = new Date(Date.now() + DAY).toISOString();
    const mark = await lastAuditId();
    const roles = [
      { role: "roles/projectViewer", expiresAt },
      { role: "roles/PROJECTVIEWER", expiresAt },
      { role: "roles/sqlEditorUser" },
      { role: "roles/sqlEditorUser" },
      { role: "roles/workspaceMember" },
    ];
    const created = await rest("POST", "/v1/users?loginId=dora", { token: token.admin, body: { password: "Correct-Horse-9-Battery", roles } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const doras = (await stored()).bindings.filter((b) => b.members.includes("user:login_id=dora"));
    assert.deepEqual(
      doras.map((b) => [b.role, b.condition?.expression ?? ""]),
      [
        ["roles/workspaceMember", ""],
        ["roles/projectViewer", `request.time < timestamp("${expiresAt}")`],
        ["roles/sqlEditorUser", ""],
      ],
    );
    assert.deepEqual(roleChanges(await auditSince(mark)), [
      "bb.role.assign workspaces/- user:login_id=dora roles/projectViewer",
      "bb.role.assign workspaces/- user:login_id=dora roles/sqlEditorUser",
      "bb.role.assign workspaces/- user:login_id=dora roles/workspaceMember",
    ]);
  });

  it("lets exactly one of 50 concurrent writers with the same etag win, losing nothing and mixing nothing", async () => {
    const { etag } = (await getPolicy(token.admin)).body;
    const mark = await lastAuditId();
    const bindingsOf = (i: number) => [ADMIN_BINDING, { ...bind("workspaceMember", i % 2 ? "bob" : "carol"), condition: { expression: expiresIn(DAY + i * 1000), title: `writer ${i}` } }];
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => setPolicy(token.admin, { policy: { bindings: bindingsOf(i) }, etag })));
    const statuses = replies.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, ...Array<number>(49).fill(409)], JSON.stringify(replies.find((r) => r.status !== 200 && r.status !== 409)?.body));
    assert.ok(replies.every((r) => r.status === 200 || r.body.code === "aborted"));
    const winner = replies.findIndex((r) => r.status === 200);
    assert.deepEqual((await getPolicy(token.admin)).body, replies[winner]!.body);
    const kept = await stored();
    assert.deepEqual([kept.etag, kept.bindings.length, kept.bindings[1]?.condition?.title], [replies[winner]!.body.etag, 2, `writer ${winner}`]);
    const rows = await auditSince(mark);
    assert.deepEqual(roleChanges(rows), [`bb.role.assign workspaces/- user:login_id=${winner % 2 ? "bob" : "carol"} roles/workspaceMember`]);
    assert.equal(rows.filter((r) => r.action === "bb.workspaces.setIamPolicy" && r.status_code === "aborted").length, 49);
  });
});
