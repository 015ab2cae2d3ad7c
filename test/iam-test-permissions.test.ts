// WorkspaceService.TestIamPermissions (decision 0116): the subset of the
// asked permissions the caller holds on a resource, as each RPC's own check
// decides it — workspace bindings everywhere, a project's bindings inside it
// (only their project-scope permissions), a change effective on the next
// call, a project the caller cannot see answered not_found, bad input refused.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { WorkspaceService } from "../shared/gen/svc/v1/workspace_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { restAs, restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

const ASKED = ["bb.settings.set", "bb.auditLogs.search", "bb.issues.create", "bb.projects.setIamPolicy", "bb.projects.get"];

describe("TestIamPermissions", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const tokens: Partial<Record<"admin" | "bob", string>> = {};
  const { call, ok } = restAs<"admin" | "bob">(() => rest, tokens, "admin");
  const held = async (as: "admin" | "bob", resource: string, permissions = ASKED) =>
    (await ok("POST", "/v1/workspaces/-:testIamPermissions", { resource, permissions }, as)).permissions ?? [];

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    await makeUser(app.db, "bob");
    tokens.admin = await signInFirstAdmin(rest);
    tokens.bob = await signIn(rest, "bob");
    for (const id of ["alpha", "beta"]) await ok("POST", `/v1/projects?projectId=${id}`, { title: id });
    await ok("POST", "/v1/projects/alpha:setIamPolicy", {
      policy: { bindings: [{ role: "roles/projectDeveloper", members: ["user:login_id=bob"] }] },
    });
  });
  after(() => app.close());

  it("answers a workspace administrator every permission, in the order asked", async () => {
    assert.deepEqual(await held("admin", ""), ASKED);
    assert.deepEqual(await held("admin", "workspaces/-", ["bb.projects.get", "bb.settings.set"]), ["bb.projects.get", "bb.settings.set"]);
    assert.deepEqual(await held("admin", "projects/alpha"), ASKED);
  });

  it("grants a project binding's project-scope permissions inside that project only", async () => {
    assert.deepEqual(await held("bob", "workspaces/-"), []);
    assert.deepEqual(await held("bob", "projects/alpha"), ["bb.issues.create", "bb.projects.get"]);
    assert.deepEqual(await held("bob", "projects/alpha/issues/1"), ["bb.issues.create", "bb.projects.get"], "a child is decided at its project");
    assert.deepEqual(await held("bob", "projects/alpha", []), []);
  });

  it("answers not_found for a project the caller cannot see, as a read of it would", async () => {
    const reply = await call("POST", "/v1/workspaces/-:testIamPermissions", { resource: "projects/beta", permissions: ["bb.issues.create"] }, "bob");
    assert.deepEqual([reply.httpStatus, reply.code, reply.message], [404, "not_found", "projects/beta does not exist"]);
    // Workspace-scope permissions are decided at the workspace whatever the name.
    assert.deepEqual(await held("bob", "projects/beta", ["bb.settings.set"]), []);
  });

  it("follows a change of the workspace policy on the next call", async () => {
    await ok("POST", "/v1/workspaces/-:setIamPolicy", {
      policy: {
        bindings: [
          { role: "roles/workspaceAdmin", members: ["user:login_id=admin"] },
          { role: "roles/readOnlyAuditor", members: ["user:login_id=bob"] },
        ],
      },
    });
    assert.deepEqual(await held("bob", ""), ["bb.auditLogs.search", "bb.projects.get"]);
    assert.deepEqual(await held("bob", "projects/beta"), ["bb.auditLogs.search", "bb.projects.get"]);
  });

  it("refuses unknown permissions, too many of them and a malformed resource, and an anonymous caller", async () => {
    const unknown = await call("POST", "/v1/workspaces/-:testIamPermissions", { permissions: ["bb.settings.get", "bb.nope.fly", "admin"] });
    assert.equal(unknown.httpStatus, 400);
    assert.match(unknown.message, /^unknown permissions: bb\.nope\.fly, admin;/);
    const many = await call("POST", "/v1/workspaces/-:testIamPermissions", { permissions: Array(101).fill("bb.settings.get") });
    assert.deepEqual([many.httpStatus, many.message], [400, "permissions may name at most 100 permissions"]);
    const malformed = await call("POST", "/v1/workspaces/-:testIamPermissions", { resource: "projects//x", permissions: [] });
    assert.equal(malformed.httpStatus, 400);
    assert.match(malformed.message, /^resource must be a resource name/);
    const anonymous = await rest("POST", "/v1/workspaces/-:testIamPermissions", { body: { permissions: [] } });
    assert.equal(anonymous.status, 401);
  });

  it("answers over Connect as over REST", async () => {
    const transport = createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1", useBinaryFormat: true });
    const workspace = createClient(WorkspaceService, transport);
    const reply = await workspace.testIamPermissions(
      { resource: "projects/alpha", permissions: ["bb.settings.set", "bb.issues.create"] },
      { headers: { authorization: `Bearer ${tokens.bob}` } },
    );
    assert.deepEqual(reply.permissions, ["bb.issues.create"]);
  });
});
