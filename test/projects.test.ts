// Projects (contract §9.1) and project IAM (§6.4): CRUD with masks and etags,
// soft deletion, listing narrowed to the caller's projects, the project's
// owner binding, and a project the caller cannot see reading as not_found.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ProjectService } from "../shared/gen/svc/v1/project_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Project = {
  name: string; title?: string; key?: string; state?: string; labels?: Record<string, string>; allowSelfApproval?: boolean;
  parallelTasksPerRollout?: number; lockTimeout?: string; statementTimeout?: string; requirePlanCheckSuccess?: boolean;
  creator?: string; etag?: string;
};
type Reply = Project & { code?: string; message?: string; projects?: Project[]; nextPageToken?: string; bindings?: { role: string; members: string[] }[] };

describe("projects", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token = { admin: "", bob: "", carol: "" };
  const call = (method: string, path: string, body?: unknown, as = token.admin) => rest<Reply>(method, path, { token: as, body });
  const sql = (text: string) => adminQuery(text, app.database.url);
  const create = async (id: string, project: Partial<Project> = {}, as = token.admin) => {
    const reply = await call("POST", `/v1/projects?projectId=${id}`, project, as);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    await makeUser(app.db, "bob");
    await makeUser(app.db, "carol");
    token.admin = await signInFirstAdmin(rest);
    token.bob = await signIn(rest, "bob");
    token.carol = await signIn(rest, "carol");
  });
  after(() => app.close());

  it("creates a project with the contract's defaults, the creator as its owner, and an audit record", async () => {
    const project = await create("payments", { title: "Payments", labels: { team: "core" } });
    assert.deepEqual({ ...project, etag: undefined, createTime: undefined, updateTime: undefined }, {
      name: "projects/payments", title: "Payments", key: "PAYMENTS", state: "ACTIVE", labels: { team: "core" },
      lockTimeout: "10s", statementTimeout: "0s", requirePlanCheckSuccess: true, creator: "users/admin",
      etag: undefined, createTime: undefined, updateTime: undefined,
    });
    const policy = await call("GET", "/v1/projects/payments:getIamPolicy");
    assert.deepEqual(policy.body.bindings?.map((b) => [b.role, b.members]), [["roles/projectOwner", ["user:login_id=admin"]]]);
    const audit = await sql(`select action, resource from audit_log where resource = 'projects/payments' order by id`);
    assert.deepEqual(audit.rows.map((r) => r.action), ["bb.projects.create", "bb.role.assign"]);
    const again = await call("POST", "/v1/projects?projectId=payments", {});
    assert.equal(again.body.code, "already_exists");
  });

  it("refuses bad ids, keys, durations and labels with the field named", async () => {
    const cases: [string, unknown, string][] = [
      ["Bad_Id", {}, "project_id"],
      ["okid", { key: "lower" }, "project.key"],
      ["okid", { lockTimeout: "soon" }, "project.lock_timeout"],
      ["okid", { labels: { "Bad Key": "x" } }, "project.labels"],
      ["okid", { parallelTasksPerRollout: -1 }, "project.parallel_tasks_per_rollout"],
    ];
    for (const [id, body, field] of cases) {
      const reply = await call("POST", `/v1/projects?projectId=${id}`, body);
      assert.equal(reply.body.code, "invalid_argument", JSON.stringify(body));
      assert.match(reply.body.message ?? "", new RegExp(field.replace(".", "\\.")));
    }
  });

  it("updates exactly the masked fields, refuses output-only fields, state, and a stale etag", async () => {
    const created = await create("billing", { title: "Billing" });
    const updated = await call("PATCH", "/v1/projects/billing?updateMask=title,lockTimeout,allowSelfApproval", {
      title: "Billing v2", key: "IGNORED", lockTimeout: "1m", allowSelfApproval: true, etag: created.etag,
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual([updated.body.title, updated.body.key, updated.body.lockTimeout, updated.body.allowSelfApproval], ["Billing v2", "BILLING", "60s", true]);
    const stale = await call("PATCH", "/v1/projects/billing?updateMask=title", { title: "x", etag: created.etag });
    assert.deepEqual([stale.status, stale.body.code], [409, "aborted"]);
    const state = await call("PATCH", "/v1/projects/billing?updateMask=state", { state: "DELETED" });
    assert.deepEqual([state.body.code, state.body.message], ["invalid_argument", "update_mask: field state is output only"]);
    const outputOnly = await call("PATCH", "/v1/projects/billing?updateMask=createTime", {});
    assert.equal(outputOnly.body.message, "update_mask: field createTime is output only");
    const unknown = await call("PATCH", "/v1/projects/billing?update_mask=allow_self_approvals", {});
    assert.match(String(unknown.body.message), /^update_mask: unknown field "allowSelfApprovals"; editable fields: title, .*allowSelfApproval/);
  });

  it("soft-deletes a project, moving nothing it does not own, and restores it; the default project stays", async () => {
    await create("scratch");
    assert.equal((await call("DELETE", "/v1/projects/scratch")).status, 200);
    assert.equal((await call("GET", "/v1/projects/scratch")).body.state, "DELETED");
    const listed = await call("GET", "/v1/projects?pageSize=1000");
    assert.ok(!listed.body.projects?.some((p) => p.name === "projects/scratch"));
    const withDeleted = await call("GET", "/v1/projects?showDeleted=true&pageSize=1000");
    assert.ok(withDeleted.body.projects?.some((p) => p.name === "projects/scratch"));
    const restored = await call("POST", "/v1/projects/scratch:undelete", {});
    assert.equal(restored.body.state, "ACTIVE");
    const again = await call("POST", "/v1/projects/scratch:undelete", {});
    assert.equal(again.body.code, "failed_precondition");
    const refused = await call("DELETE", "/v1/projects/default");
    assert.equal(refused.body.code, "failed_precondition");
  });

  it("lists newest first with filters and stable pages", async () => {
    for (const id of ["list-a", "list-b", "list-c"]) await create(id, { title: `Listed ${id}` });
    const first = await call("GET", `/v1/projects?pageSize=2&filter=${encodeURIComponent('title:"listed"')}`);
    assert.deepEqual(first.body.projects?.map((p) => p.name), ["projects/list-c", "projects/list-b"]);
    await create("list-d", { title: "Listed list-d" });
    const second = await call("GET", `/v1/projects?pageSize=2&pageToken=${first.body.nextPageToken}&filter=${encodeURIComponent('title:"listed"')}`);
    assert.deepEqual(second.body.projects?.map((p) => p.name), ["projects/list-a"]);
    assert.equal(second.body.nextPageToken ?? "", "");
    const unknown = await call("GET", "/v1/projects?filter=owner:me");
    assert.equal(unknown.body.code, "invalid_argument");
  });

  it("shows a caller without workspace-wide access only its projects, and hides the others as not_found", async () => {
    await create("team-x");
    const bobsView = await call("GET", "/v1/projects?pageSize=1000", undefined, token.bob);
    assert.deepEqual(bobsView.body.projects ?? [], []);
    const hidden = await call("GET", "/v1/projects/team-x", undefined, token.bob);
    assert.deepEqual([hidden.status, hidden.body.code, hidden.body.message], [404, "not_found", "projects/team-x does not exist"]);
    const granted = await call("POST", "/v1/projects/team-x:setIamPolicy", {
      policy: { bindings: [{ role: "roles/projectOwner", members: ["user:login_id=admin"] }, { role: "roles/projectViewer", members: ["user:login_id=bob"] }] },
    });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    const nowVisible = await call("GET", "/v1/projects?pageSize=1000", undefined, token.bob);
    assert.deepEqual(nowVisible.body.projects?.map((p) => p.name), ["projects/team-x"]);
    // Visible but not allowed: permission_denied naming the permission and the project.
    const denied = await call("PATCH", "/v1/projects/team-x?updateMask=title", { title: "mine" }, token.bob);
    assert.deepEqual([denied.status, denied.body.message], [403, "permission bb.projects.update required on projects/team-x"]);
    // A project binding grants nothing outside the project.
    assert.equal((await call("GET", "/v1/projects/payments", undefined, token.bob)).body.code, "not_found");
  });

  it("lets a project owner create and manage its project through Connect, and audits project IAM changes per member", async () => {
    await sql(`update iam_policy set bindings = bindings || '[{"role":"roles/workspaceMember","members":["user:login_id=carol"]}]' where scope = 'workspaces/-'`);
    const denied = await call("POST", "/v1/projects?projectId=carols", {}, token.carol);
    assert.equal(denied.body.message, "permission bb.projects.create required on workspaces/-");
    await sql(`update iam_policy set bindings = bindings || '[{"role":"roles/workspaceDBA","members":["user:login_id=carol"]}]' where scope = 'workspaces/-'`);
    const client = createClient(ProjectService, createConnectTransport({
      baseUrl: app.baseUrl, httpVersion: "1.1",
      interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${token.carol}`), next(req))],
    }));
    const project = await client.createProject({ projectId: "carols", project: { title: "Carol's" } });
    assert.equal(project.creator, "users/carol");
    const policy = await client.getProjectIamPolicy({ resource: "projects/carols" });
    const before = Number((await sql(`select max(id) as id from audit_log`)).rows[0].id);
    await client.setProjectIamPolicy({
      resource: "projects/carols", etag: policy.etag,
      policy: { bindings: [...policy.bindings, { role: "roles/projectDeveloper", members: ["user:login_id=bob"] }] },
    });
    const records = await sql(`select action, resource, detail from audit_log where id > ${before} order by id`);
    assert.deepEqual(records.rows.map((r) => [r.action, r.resource]), [["bb.projects.setIamPolicy", "projects/carols"], ["bb.role.assign", "projects/carols"]]);
    assert.deepEqual(records.rows[1].detail, { member: "user:login_id=bob", role: "roles/projectDeveloper" });
    const stale = await client.setProjectIamPolicy({ resource: "projects/carols", etag: policy.etag, policy: { bindings: [] } }).catch((e) => ConnectError.from(e));
    assert.equal((stale as ConnectError).code, Code.Aborted);
  });
});
