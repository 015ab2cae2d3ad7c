// Custom roles (contract §6.3, §15.9, §18.2): listed after the predefined
// ones, created with checked ids and permissions, updated under an etag,
// deleted only when no binding names them; bound to a user they grant exactly
// their permissions, at project scope only the project-scope ones, and a
// change acts on the next request. Every write is audited.
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { Role_Type, RoleService } from "../shared/gen/svc/v1/role_service_pb.js";
import { hasPermission, projectsWithBinding } from "../shared/identity/iam/authorize.ts";
import { type IamReads, readOnce, storedIam } from "../shared/identity/iam/iam-reads.ts";
import { PREDEFINED_ROLES } from "../shared/identity/iam/predefined-roles.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Role = { name: string; title?: string; description?: string; permissions?: string[]; type: string; etag?: string };
type Reply = Role & { code?: string; message?: string; roles?: Role[]; nextPageToken?: string };

const ADMIN_BINDING = { role: "roles/workspaceAdmin", members: ["user:login_id=admin"] };
const bind = (role: string, login: string) => ({ role: `roles/${role}`, members: [`user:login_id=${login}`] });

describe("custom roles", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token = { admin: "", bob: "" };

  const call = (method: string, path: string, body?: unknown, as = token.admin) => rest<Reply>(method, path, { token: as, body });
  const createRole = async (id: string, permissions: string[], title = id) => {
    const reply = await call("POST", `/v1/roles?roleId=${id}`, { title, permissions });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };
  const setPolicy = async (...bindings: object[]) => {
    const reply = await call("POST", "/v1/workspaces/-:setIamPolicy", { policy: { bindings: [ADMIN_BINDING, ...bindings] } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
  };
  const storeProjectPolicy = (project: string, bindings: object[]) =>
    adminQuery(`insert into iam_policy (scope, bindings) values ('projects/${project}', '${JSON.stringify(bindings)}')
                on conflict (scope) do update set bindings = excluded.bindings`, app.database.url);
  const statusAs = async (as: string, path: string) => (await rest("GET", path, { token: as })).status;
  const refusal = (reply: { status: number; body: Reply }) => [reply.status, reply.body.code, reply.body.message];

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    await makeUser(app.db, "bob");
    await makeUser(app.db, "carol");
    token.admin = await signInFirstAdmin(rest);
    token.bob = await signIn(rest, "bob");
  });
  after(() => app.close());
  afterEach(async () => {
    await adminQuery(`update iam_policy set bindings = '${JSON.stringify([ADMIN_BINDING])}' where scope = 'workspaces/-'`, app.database.url);
    await adminQuery(`delete from iam_policy where scope like 'projects/%'; delete from custom_role; delete from setting where name in ('SSO_GROUP_MAPPING', 'WORKSPACE_APPROVAL')`, app.database.url);
  });

  it("lists the predefined roles first, then custom roles by id, in pages", async () => {
    await createRole("zeta", ["bb.users.get"]);
    await createRole("Alpha", ["bb.users.list"]);
    const seen: Role[] = [];
    let pageToken = "";
    do {
      const reply = await call("GET", `/v1/roles?pageSize=4${pageToken ? `&pageToken=${pageToken}` : ""}`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.ok(reply.body.roles!.length <= 4);
      seen.push(...reply.body.roles!);
      pageToken = reply.body.nextPageToken ?? "";
    } while (pageToken);
    assert.deepEqual(seen.map((r) => r.name), [...PREDEFINED_ROLES.map((r) => `roles/${r.id}`), "roles/Alpha", "roles/zeta"]);
    assert.ok(seen.slice(0, 13).every((r) => r.type === "BUILT_IN" && !r.etag));
    assert.deepEqual(seen.slice(13).map((r) => [r.type, r.permissions]), [["CUSTOM", ["bb.users.list"]], ["CUSTOM", ["bb.users.get"]]]);
    const admin = seen[0]!;
    assert.equal(admin.permissions!.length, 85);
    assert.equal((await call("GET", "/v1/roles?pageToken=bm90LWEtdG9rZW4")).body.code, "invalid_argument");
    assert.deepEqual(refusal(await call("GET", "/v1/roles", undefined, token.bob)), [403, "permission_denied", "permission bb.roles.list required on workspaces/-"]);
  });

  it("creates a role with sorted, distinct permissions and finds it in any case", async () => {
    const created = await createRole("data-Reader", ["bb.users.list", "bb.auditLogs.search", "bb.users.list"], "Data reader");
    assert.deepEqual({ ...created, etag: undefined }, {
      name: "roles/data-Reader", title: "Data reader", permissions: ["bb.auditLogs.search", "bb.users.list"], type: "CUSTOM", etag: undefined,
    });
    assert.match(created.etag!, /^\S{8,}$/);
    assert.deepEqual((await call("GET", "/v1/roles/DATA-READER")).body, created);
    assert.equal((await call("GET", "/v1/roles/workspaceadmin")).body.name, "roles/workspaceAdmin");
    assert.deepEqual(refusal(await call("GET", "/v1/roles/nothing")), [404, "not_found", `role "roles/nothing" does not exist`]);
    assert.equal((await call("GET", "/v1/roles/bad_id")).body.code, "invalid_argument");
    const row = await adminQuery(`select id, title, permissions from custom_role`, app.database.url);
    assert.deepEqual(row.rows, [{ id: "data-Reader", title: "Data reader", permissions: ["bb.auditLogs.search", "bb.users.list"] }]);
  });

  it("refuses malformed ids, taken ids in any case and unknown permissions (all of them named)", async () => {
    await createRole("reader", ["bb.users.list"]);
    const create = (id: string, permissions = ["bb.users.get"]) => call("POST", `/v1/roles?roleId=${id}`, { permissions });
    for (const id of ["", "1role", "role_x", "-x", "a".repeat(64)]) {
      const reply = await create(id);
      assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"], id);
      assert.match(reply.body.message!, /^role_id: /, id);
    }
    assert.deepEqual(refusal(await create("workspaceadmin")), [409, "already_exists", `role "roles/workspaceAdmin" already exists as a predefined role`]);
    assert.deepEqual(refusal(await create("READER")), [409, "already_exists", `role "roles/reader" already exists`]);
    const unknown = await create("other", ["bb.users.list", "bb.users.fly", "bb.nothing.get", "users.get"]);
    assert.deepEqual([unknown.status, unknown.body.code], [400, "invalid_argument"]);
    assert.match(unknown.body.message!, /^role\.permissions: unknown permissions "bb\.users\.fly", "bb\.nothing\.get", "users\.get"; /);
    const ids = await adminQuery(`select id from custom_role`, app.database.url);
    assert.deepEqual(ids.rows, [{ id: "reader" }]);
  });

  it("updates the masked fields under the etag; refuses built-in roles, stale etags and bad masks", async () => {
    const created = await createRole("ops", ["bb.users.list"]);
    const patch = (path: string, body: unknown) => call("PATCH", path, body);
    const updated = await patch("/v1/roles/OPS?updateMask=title,permissions", { title: "Operators", description: "ignored", permissions: ["bb.users.get"], etag: created.etag });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual([updated.body.name, updated.body.title, updated.body.description, updated.body.permissions], ["roles/ops", "Operators", undefined, ["bb.users.get"]]);
    assert.notEqual(updated.body.etag, created.etag);
    assert.deepEqual(refusal(await patch("/v1/roles/ops?updateMask=title", { title: "x", etag: created.etag })).slice(0, 2), [409, "aborted"]);
    assert.equal((await patch("/v1/roles/ops?update_mask=description", { description: "Runs things" })).body.description, "Runs things", "no etag: unconditional");
    const builtIn = await patch("/v1/roles/workspaceDBA?updateMask=title", { title: "x" });
    assert.deepEqual(refusal(builtIn), [400, "failed_precondition", "built-in roles cannot be changed"]);
    assert.deepEqual(refusal(await patch("/v1/roles/ops", { title: "x" })).slice(0, 2), [400, "invalid_argument"]);
    assert.deepEqual(refusal(await patch("/v1/roles/ops?updateMask=type", {})), [400, "invalid_argument", "update_mask: field type is output only"]);
    assert.match(refusal(await patch("/v1/roles/ops?updateMask=owner", {}))[2] as string, /unknown field "owner"; editable fields: title, description, permissions/);
    assert.match(refusal(await patch("/v1/roles/ops?updateMask=permissions", { permissions: ["bb.x.y"] }))[2] as string, /unknown permissions "bb\.x\.y"/);
    assert.deepEqual(refusal(await patch("/v1/roles/gone?updateMask=title", {})).slice(0, 2), [404, "not_found"]);
    assert.deepEqual((await call("GET", "/v1/roles/ops")).body.permissions, ["bb.users.get"], "refusals changed nothing");
  });

  it("binds a custom role by any case of its id, stored as the role's own id", async () => {
    await createRole("Auditor", ["bb.users.list"]);
    await setPolicy(bind("AUDITOR", "bob"));
    const stored = await adminQuery(`select bindings from iam_policy where scope = 'workspaces/-'`, app.database.url);
    assert.deepEqual(stored.rows[0].bindings, [ADMIN_BINDING, bind("Auditor", "bob")]);
    const unknown = await call("POST", "/v1/workspaces/-:setIamPolicy", { policy: { bindings: [ADMIN_BINDING, bind("ghost", "bob")] } });
    assert.deepEqual([unknown.status, unknown.body.code], [400, "invalid_argument"]);
    assert.match(unknown.body.message!, /^policy\.bindings\[1\]\.role: unknown role "roles\/ghost"/);
  });

  it("grants exactly the role's permissions, and a change of the role acts on the next request", async () => {
    await createRole("lister", ["bb.users.list"]);
    assert.equal(await statusAs(token.bob, "/v1/users"), 403);
    await setPolicy(bind("lister", "bob"));
    assert.equal(await statusAs(token.bob, "/v1/users"), 200);
    assert.equal(await statusAs(token.bob, "/v1/users/carol"), 403, "no bb.users.get");
    assert.equal(await statusAs(token.bob, "/v1/workspaces/-:getIamPolicy"), 403);
    const changed = await call("PATCH", "/v1/roles/lister?updateMask=permissions", { permissions: ["bb.workspaces.getIamPolicy"] });
    assert.equal(changed.status, 200);
    assert.equal(await statusAs(token.bob, "/v1/users"), 403, "removed on the next request");
    assert.equal(await statusAs(token.bob, "/v1/workspaces/-:getIamPolicy"), 200, "added on the next request");
  });

  it("grants at project scope only the project-scope permissions of the role (§15.9)", async () => {
    await createRole("mixed", ["bb.users.list", "bb.issues.get"]);
    await storeProjectPolicy("p1", [bind("mixed", "bob")]);
    assert.equal(await statusAs(token.bob, "/v1/users"), 403, "a project binding does not grant bb.users.list");
    const bob = { loginId: "bob" };
    assert.equal(await hasPermission(storedIam(app.db), bob, "bb.issues.get", "projects/p1"), true);
    assert.equal(await hasPermission(storedIam(app.db), bob, "bb.issues.get", "projects/p2"), false);
    assert.equal(await hasPermission(storedIam(app.db), bob, "bb.users.list", "projects/p1"), false, "even when the caller names the project");
    await setPolicy(bind("mixed", "bob"));
    assert.equal(await statusAs(token.bob, "/v1/users"), 200, "the workspace binding grants it");
    assert.equal(await hasPermission(storedIam(app.db), bob, "bb.issues.get", "projects/p2"), true, "workspace bindings count in every project");
  });

  it("readOnce decides as the store does, reading each distinct question once", async () => {
    await createRole("mixed", ["bb.users.list", "bb.issues.get"]);
    await storeProjectPolicy("p1", [bind("mixed", "bob")]);
    const asked: string[] = [];
    const stored = storedIam(app.db);
    const counted: IamReads = {
      policies: (scopes) => (asked.push(`policies ${scopes.join()}`), stored.policies(scopes)),
      projectPolicies: () => (asked.push("project policies"), stored.projectPolicies()),
      groupIds: (loginId) => (asked.push(`groups ${loginId}`), stored.groupIds(loginId)),
      customRolePermissions: (ids) => (asked.push(`roles ${ids.join()}`), stored.customRolePermissions(ids)),
    };
    const once = readOnce(counted);
    const bob = { loginId: "bob" };
    for (const [permission, scope, expected] of [["bb.issues.get", "projects/p1", true], ["bb.issues.get", "projects/p1", true], ["bb.issues.get", "projects/p2", false]] as const) {
      assert.equal(await hasPermission(once, bob, permission, scope), expected, `${permission} on ${scope}`);
      assert.equal(await hasPermission(stored, bob, permission, scope), expected);
    }
    assert.deepEqual(await projectsWithBinding(once, bob), ["p1"]);
    await projectsWithBinding(once, bob);
    assert.deepEqual(asked, ["policies workspaces/-,projects/p1", "roles mixed", "policies workspaces/-,projects/p2", "project policies"]);
  });

  it("deletes custom roles, but neither built-in roles nor roles a binding names", async () => {
    await createRole("temp", ["bb.users.list"]);
    await setPolicy(bind("temp", "bob"));
    await storeProjectPolicy("p1", [bind("temp", "carol")]);
    const used = await call("DELETE", "/v1/roles/temp");
    assert.deepEqual(refusal(used), [400, "failed_precondition",
      `role "roles/temp" is used by bindings in the IAM policies of projects/p1, workspaces/-; remove those bindings first`]);
    assert.deepEqual(refusal(await call("DELETE", "/v1/roles/projectOwner")), [400, "failed_precondition", "built-in roles cannot be changed"]);
    await setPolicy();
    await storeProjectPolicy("p1", []);
    assert.equal((await call("DELETE", "/v1/roles/TEMP")).status, 200);
    assert.equal((await call("GET", "/v1/roles/temp")).status, 404);
    assert.equal((await call("DELETE", "/v1/roles/temp")).status, 404);
  });

  it("refuses to delete a role SSO_GROUP_MAPPING grants, naming the setting and the mapping, in any case of the id", async () => {
    await createRole("mapped", ["bb.users.list"]);
    const mapping = (role: string) => ({ mappings: [
      { idp: "idps/corp", group: "dev", bindings: [{ role: "roles/workspaceMember", scope: "workspaces/-" }] },
      { idp: "idps/corp", group: "eng", bindings: [{ role, scope: "projects/p1" }] },
    ] });
    const written = await call("PATCH", "/v1/settings/SSO_GROUP_MAPPING?updateMask=*", { value: { ssoGroupMapping: mapping("roles/mapped") } });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    const message = `role "roles/mapped" is granted by settings/SSO_GROUP_MAPPING (idps/corp group "eng"); remove it from the mapping first`;
    assert.deepEqual(refusal(await call("DELETE", "/v1/roles/MAPPED")), [400, "failed_precondition", message]);
    await adminQuery(`update setting set value = '${JSON.stringify(mapping("roles/Mapped"))}' where name = 'SSO_GROUP_MAPPING'`, app.database.url);
    assert.deepEqual(refusal(await call("DELETE", "/v1/roles/mapped")), [400, "failed_precondition", message]);
    const connect = createClient(RoleService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const refused = await connect.deleteRole({ name: "roles/mapped" }, { headers: { authorization: `Bearer ${token.admin}` } }).catch((e: unknown) => ConnectError.from(e));
    assert.deepEqual([(refused as ConnectError).code, (refused as ConnectError).rawMessage], [Code.FailedPrecondition, message]);
    assert.equal((await adminQuery(`select 1 from custom_role where id = 'mapped'`, app.database.url)).rowCount, 1);
    const cleared = await call("PATCH", "/v1/settings/SSO_GROUP_MAPPING?updateMask=*", { value: { ssoGroupMapping: { mappings: [] } } });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.equal((await call("DELETE", "/v1/roles/mapped")).status, 200);
  });

  it("refuses to delete a role that approves steps of WORKSPACE_APPROVAL, naming the rule", async () => {
    await createRole("approver", ["bb.issues.get"]);
    const rules = (role: string) => [
      { source: "CHANGE_DATABASE", condition: { expression: "true" }, template: { title: "Anyone", steps: [] } },
      { source: "CHANGE_DATABASE", condition: { expression: 'resource.environment_id == "prod"' }, template: { title: "Prod", steps: [{ roles: ["roles/projectOwner"] }, { roles: [role] }] } },
    ];
    const written = await call("PATCH", "/v1/settings/WORKSPACE_APPROVAL?updateMask=*", { value: { workspaceApproval: { rules: rules("roles/Approver") } } });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    const message = `role "roles/approver" approves steps of settings/WORKSPACE_APPROVAL (rule 2 "Prod"); remove it from those steps first`;
    assert.deepEqual(refusal(await call("DELETE", "/v1/roles/approver")), [400, "failed_precondition", message]);
    const cleared = await call("PATCH", "/v1/settings/WORKSPACE_APPROVAL?updateMask=*", { value: { workspaceApproval: { rules: rules("roles/projectOwner") } } });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.equal((await call("DELETE", "/v1/roles/approver")).status, 200);
  });

  it("never leaves a binding to a deleted role when deletes and policy writes race", async () => {
    for (let i = 0; i < 8; i++) {
      await createRole(`race-${i}`, ["bb.users.list"]);
      const [written, deleted] = await Promise.all([
        call("POST", "/v1/workspaces/-:setIamPolicy", { policy: { bindings: [ADMIN_BINDING, bind(`race-${i}`, "bob")] } }),
        call("DELETE", `/v1/roles/race-${i}`),
      ]);
      assert.ok([written.status, deleted.status].includes(200), JSON.stringify([written.body, deleted.body]));
      const exists = (await adminQuery(`select 1 from custom_role where id = 'race-${i}'`, app.database.url)).rowCount === 1;
      const bound = JSON.stringify((await adminQuery(`select bindings from iam_policy where scope = 'workspaces/-'`, app.database.url)).rows[0].bindings).includes(`race-${i}`);
      assert.ok(exists || !bound, `roles/race-${i} was deleted while still bound`);
      await setPolicy();
    }
  });

  it("serves the same rules over Connect and gRPC", async () => {
    const connect = createClient(RoleService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const grpc = createClient(RoleService, createGrpcTransport({ baseUrl: app.baseUrl }));
    const as = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
    const created = await connect.createRole({ roleId: "viaConnect", role: { title: "T", permissions: ["bb.roles.get"] } }, as(token.admin));
    assert.deepEqual([created.name, created.type, created.permissions], ["roles/viaConnect", Role_Type.CUSTOM, ["bb.roles.get"]]);
    const listed = await grpc.listRoles({ pageSize: 1000 }, as(token.admin));
    assert.equal(listed.roles.at(-1)?.name, "roles/viaConnect");
    const updated = await grpc.updateRole({ role: { name: "roles/viaconnect", title: "U", etag: created.etag }, updateMask: { paths: ["title"] } }, as(token.admin));
    assert.equal(updated.title, "U");
    const codeOf = async (call: Promise<unknown>) => ConnectError.from(await call.then(() => undefined, (e: unknown) => e)).code;
    assert.equal(await codeOf(connect.updateRole({ role: { name: "roles/viaConnect", etag: created.etag }, updateMask: { paths: ["title"] } }, as(token.admin))), Code.Aborted);
    assert.equal(await codeOf(connect.deleteRole({ name: "roles/sqlEditorUser" }, as(token.admin))), Code.FailedPrecondition);
    assert.equal(await codeOf(grpc.createRole({ roleId: "x", role: { permissions: ["bb.nope.x"] } }, as(token.admin))), Code.InvalidArgument);
    assert.equal(await codeOf(connect.getRole({ name: "roles/viaConnect" }, as(token.bob))), Code.PermissionDenied);
    await connect.deleteRole({ name: "roles/viaConnect" }, as(token.admin));
    assert.equal(await codeOf(connect.getRole({ name: "roles/viaConnect" }, as(token.admin))), Code.NotFound);
  });

  it("audits creates, updates and deletes, and refusals", async () => {
    const mark = Number((await adminQuery(`select coalesce(max(id), 0) as id from audit_log`, app.database.url)).rows[0].id);
    await createRole("audited", ["bb.users.list"]);
    await call("PATCH", "/v1/roles/audited?updateMask=title", { title: "A" });
    await call("POST", "/v1/roles?roleId=audited", { permissions: [] });
    await call("POST", "/v1/roles?roleId=sneaky", { permissions: [] }, token.bob);
    await call("DELETE", "/v1/roles/AUDITED");
    const rows = await adminQuery(
      `select actor, action, resource, status_code from audit_log where id > ${mark} and action like 'bb.roles.%' order by id`, app.database.url);
    assert.deepEqual(rows.rows.map((r) => Object.values(r)), [
      ["users/admin", "bb.roles.create", "roles/audited", "ok"],
      ["users/admin", "bb.roles.update", "roles/audited", "ok"],
      ["users/admin", "bb.roles.create", "roles/audited", "already_exists"],
      ["users/bob", "bb.roles.create", "workspaces/-", "permission_denied"],
      ["users/admin", "bb.roles.delete", "roles/audited", "ok"],
    ]);
  });
});
