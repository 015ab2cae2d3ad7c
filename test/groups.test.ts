// Groups (contract §5.2, §5.1, §6.4): created with existing users as members,
// updated by holders of bb.groups.update or by the group's owners, deleted
// only when no binding names them; a binding to group:<id> grants its role to
// the members of the moment, so a membership change acts on the next request.
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { Group_Source, GroupMember_Role, GroupService } from "../shared/gen/svc/v1/group_service_pb.js";
import { inRequire2faGroup } from "../shared/identity/group/group-member.store.ts";
import { encodePageToken } from "../shared/platform/list/page.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Member = { member: string; role?: string };
type Group = { name: string; title?: string; email?: string; members?: Member[]; require2fa?: boolean; source?: string; etag?: string };
type Reply = Group & { code?: string; message?: string; groups?: Group[]; nextPageToken?: string };

const ADMIN_BINDING = { role: "roles/workspaceAdmin", members: ["user:login_id=admin"] };
const user = (login: string, role?: string): Member => (role ? { member: `user:login_id=${login}`, role } : { member: `user:login_id=${login}` });
const DENIED_UPDATE = "permission bb.groups.update required on workspaces/-";

describe("groups", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token = { admin: "", bob: "", carol: "", dave: "" };

  const call = (method: string, path: string, body?: unknown, as = token.admin) => rest<Reply>(method, path, { token: as, body });
  const createGroup = async (id: string, group: Partial<Group>) => {
    const reply = await call("POST", `/v1/groups?groupId=${id}`, group);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };
  const setPolicy = (...bindings: object[]) => call("POST", "/v1/workspaces/-:setIamPolicy", { policy: { bindings: [ADMIN_BINDING, ...bindings] } });
  const statusAs = async (as: string, path: string) => (await rest("GET", path, { token: as })).status;
  const refusal = (reply: { status: number; body: Reply }) => [reply.status, reply.body.code, reply.body.message];
  const sql = (text: string) => adminQuery(text, app.database.url);

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    for (const login of ["bob", "carol", "dave"]) await makeUser(app.db, login);
    token.admin = await signInFirstAdmin(rest);
    for (const login of ["bob", "carol", "dave"] as const) token[login] = await signIn(rest, login);
  });
  after(() => app.close());
  afterEach(async () => {
    await sql(`update iam_policy set bindings = '${JSON.stringify([ADMIN_BINDING])}' where scope = 'workspaces/-'`);
    await sql(`delete from iam_policy where scope like 'projects/%'; delete from user_group; delete from custom_role`);
  });

  it("creates a group with canonical, sorted members and reads it back", async () => {
    const created = await createGroup("eng", {
      title: "Engineering", email: "Eng@Example.com", members: [user("CAROL"), user("bob", "OWNER")], source: "SCIM",
    });
    assert.deepEqual({ ...created, etag: undefined, createTime: undefined, updateTime: undefined }, {
      name: "groups/eng", title: "Engineering", email: "eng@example.com", source: "LOCAL",
      members: [user("bob", "OWNER"), user("carol", "MEMBER")], etag: undefined, createTime: undefined, updateTime: undefined,
    });
    assert.match(created.etag!, /^\S{8,}$/);
    assert.deepEqual((await call("GET", "/v1/groups/eng")).body, created);
    const rows = await sql(`select group_id, login_id, role from group_member order by login_id`);
    assert.deepEqual(rows.rows, [{ group_id: "eng", login_id: "bob", role: "OWNER" }, { group_id: "eng", login_id: "carol", role: "MEMBER" }]);
    assert.deepEqual(refusal(await call("GET", "/v1/groups/none")), [404, "not_found", `group "groups/none" does not exist`]);
    assert.equal((await call("GET", "/v1/groups/Eng")).body.code, "invalid_argument");
  });

  it("refuses bad ids, taken ids, bad members and bad e-mail addresses", async () => {
    await createGroup("ops", {});
    const create = (id: string, group: Partial<Group> = {}) => call("POST", `/v1/groups?groupId=${id}`, group);
    for (const id of ["", "Ops2", "1ops", "ops_x", "o".repeat(64)]) {
      const reply = await create(id);
      assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"], id);
      assert.match(reply.body.message!, /^group_id: /, id);
    }
    assert.deepEqual(refusal(await create("ops")), [409, "already_exists", `group "groups/ops" already exists`]);
    const cases: [Partial<Group>, RegExp][] = [
      [{ members: [user("ghost"), user("bob"), user("phantom")] }, /^group\.members: unknown users "ghost", "phantom"$/],
      [{ members: [{ member: "bob" }] }, /^group\.members\[0\]\.member: "bob" is not a user; use user:login_id=<login_id>$/],
      [{ members: [{ member: "group:ops" }] }, /^group\.members\[0\]\.member: /],
      [{ members: [user("bob"), user("BOB", "OWNER")] }, /^group\.members\[1\]\.member: user "bob" is listed twice$/],
      [{ email: "not an address" }, /^group\.email: /],
    ];
    for (const [group, message] of cases) {
      const reply = await create("new", group);
      assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"], JSON.stringify(group));
      assert.match(reply.body.message!, message);
    }
    assert.deepEqual((await sql(`select id from user_group`)).rows, [{ id: "ops" }]);
  });

  it("lists groups by id in pages, with their members", async () => {
    for (const id of ["c-team", "a-team", "b-team"]) await createGroup(id, { members: [user("dave")] });
    const first = await call("GET", "/v1/groups?pageSize=2");
    assert.deepEqual(first.body.groups!.map((g) => [g.name, g.members]), [["groups/a-team", [user("dave", "MEMBER")]], ["groups/b-team", [user("dave", "MEMBER")]]]);
    const second = await call("GET", `/v1/groups?pageSize=2&pageToken=${first.body.nextPageToken}`);
    assert.deepEqual([second.body.groups!.map((g) => g.name), second.body.nextPageToken], [["groups/c-team"], undefined]);
    assert.deepEqual(refusal(await call("GET", "/v1/groups", undefined, token.bob)), [403, "permission_denied", "permission bb.groups.list required on workspaces/-"]);
  });

  it("refuses a malformed page token, one from another list and one of another shape with invalid_argument", async () => {
    await createGroup("a-team", {});
    const rolesToken = (await call("GET", "/v1/roles?pageSize=1")).body.nextPageToken;
    assert.ok(rolesToken);
    const cases: [string, string][] = [
      ["not a token!", "page_token is malformed"],
      [rolesToken, "page_token does not belong to this query"],
      [encodePageToken("groups", [42]), "page_token is malformed"],
      [encodePageToken("groups", ["a", "b"]), "page_token is malformed"],
    ];
    for (const [pageToken, message] of cases) {
      assert.deepEqual(refusal(await call("GET", `/v1/groups?pageToken=${encodeURIComponent(pageToken)}`)), [400, "invalid_argument", message], pageToken);
    }
    const connect = createClient(GroupService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const refused = await connect.listGroups({ pageToken: rolesToken }, { headers: { authorization: `Bearer ${token.admin}` } }).catch((e: unknown) => ConnectError.from(e));
    assert.equal((refused as ConnectError).code, Code.InvalidArgument);
  });

  it("grants a group binding to its members and stops at the next request after a member leaves", async () => {
    await createGroup("auditors", { members: [user("bob"), user("carol")] });
    await sql(`insert into custom_role (id, permissions) values ('lister', '{bb.users.list}')`);
    assert.equal((await setPolicy({ role: "roles/readOnlyAuditor", members: ["group:auditors"] }, { role: "roles/lister", members: ["group:auditors"] })).status, 200);
    const policy = "/v1/workspaces/-:getIamPolicy";
    assert.deepEqual([await statusAs(token.bob, policy), await statusAs(token.carol, policy), await statusAs(token.dave, policy)], [200, 200, 403]);
    assert.equal(await statusAs(token.bob, "/v1/users"), 200, "custom roles reach group members too");
    const left = await call("PATCH", "/v1/groups/auditors?updateMask=members", { members: [user("carol"), user("dave")] });
    assert.equal(left.status, 200, JSON.stringify(left.body));
    assert.deepEqual([await statusAs(token.bob, policy), await statusAs(token.carol, policy), await statusAs(token.dave, policy)], [403, 200, 200]);
    assert.equal(await statusAs(token.bob, "/v1/users"), 403);
  });

  it("accepts existing groups in bindings and refuses unknown ones with the accepted shapes", async () => {
    await createGroup("dbas", {});
    assert.equal((await setPolicy({ role: "roles/workspaceDBA", members: ["group:dbas", "user:login_id=BOB"] })).status, 200);
    const stored = await sql(`select bindings from iam_policy where scope = 'workspaces/-'`);
    assert.deepEqual(stored.rows[0].bindings[1], { role: "roles/workspaceDBA", members: ["group:dbas", "user:login_id=bob"] });
    const unknown = await setPolicy({ role: "roles/workspaceDBA", members: ["group:nope"] });
    assert.deepEqual([unknown.status, unknown.body.code], [400, "invalid_argument"]);
    assert.match(unknown.body.message!, /^policy\.bindings\[1\]\.members\[0\]: group "nope" does not exist; accepted shapes: user:login_id=<login_id>, group:<group_id> or allUsers$/);
  });

  it("lets an OWNER update the group without bb.groups.update, and no other member", async () => {
    const created = await createGroup("eng", { title: "Eng", members: [user("bob", "OWNER"), user("carol")] });
    const byOwner = await call("PATCH", "/v1/groups/eng?updateMask=title,require2fa", { title: "Engineering", require2fa: true, etag: created.etag }, token.bob);
    assert.equal(byOwner.status, 200, JSON.stringify(byOwner.body));
    assert.deepEqual([byOwner.body.title, byOwner.body.require2fa, byOwner.body.members], ["Engineering", true, created.members]);
    assert.notEqual(byOwner.body.etag, created.etag);
    assert.deepEqual(refusal(await call("PATCH", "/v1/groups/eng?updateMask=title", { title: "x" }, token.carol)), [403, "permission_denied", DENIED_UPDATE]);
    assert.deepEqual(refusal(await call("PATCH", "/v1/groups/none?updateMask=title", { title: "x" }, token.bob)), [403, "permission_denied", DENIED_UPDATE]);
    assert.deepEqual(refusal(await call("PATCH", "/v1/groups/none?updateMask=title", { title: "x" })).slice(0, 2), [404, "not_found"]);
    const handOver = await call("PATCH", "/v1/groups/eng?updateMask=members", { members: [user("carol", "OWNER")] }, token.bob);
    assert.equal(handOver.status, 200, JSON.stringify(handOver.body));
    assert.equal((await call("PATCH", "/v1/groups/eng?updateMask=title", { title: "x" }, token.bob)).status, 403, "no longer an owner");
    assert.equal((await call("PATCH", "/v1/groups/eng?updateMask=description", { description: "d" }, token.carol)).status, 200);
  });

  it("refuses stale etags and bad masks, changing nothing", async () => {
    const created = await createGroup("eng", { title: "Eng" });
    await call("PATCH", "/v1/groups/eng?updateMask=email", { email: "eng@example.com" });
    const patch = (mask: string, body: object) => call("PATCH", `/v1/groups/eng${mask ? `?updateMask=${mask}` : ""}`, body);
    assert.deepEqual(refusal(await patch("title", { title: "x", etag: created.etag })).slice(0, 2), [409, "aborted"]);
    assert.deepEqual(refusal(await patch("", { title: "x" })).slice(0, 2), [400, "invalid_argument"]);
    assert.deepEqual(refusal(await patch("source", {})), [400, "invalid_argument", "update_mask: field source is output only"]);
    assert.match(refusal(await patch("owner", {}))[2] as string, /unknown field "owner"; editable fields: title, description, email, members, require2fa/);
    assert.match(refusal(await patch("members", { members: [user("ghost")] }))[2] as string, /unknown users "ghost"/);
    const now = (await call("GET", "/v1/groups/eng")).body;
    assert.deepEqual([now.title, now.email], ["Eng", "eng@example.com"]);
  });

  it("deletes a group with its members, but not while a binding names it", async () => {
    await createGroup("temp", { members: [user("bob")] });
    await setPolicy({ role: "roles/workspaceMember", members: ["group:temp"] });
    await sql(`insert into iam_policy (scope, bindings) values ('projects/p1', '[{"role": "roles/projectViewer", "members": ["group:temp"]}]')`);
    assert.deepEqual(refusal(await call("DELETE", "/v1/groups/temp")), [400, "failed_precondition",
      `group "groups/temp" is named by bindings in the IAM policies of projects/p1, workspaces/-; remove those bindings first`]);
    await setPolicy();
    await sql(`delete from iam_policy where scope = 'projects/p1'`);
    assert.equal((await call("DELETE", "/v1/groups/temp", undefined, token.bob)).status, 403);
    assert.equal((await call("DELETE", "/v1/groups/temp")).status, 200);
    assert.equal((await call("GET", "/v1/groups/temp")).status, 404);
    assert.equal((await sql(`select 1 from group_member where group_id = 'temp'`)).rowCount, 0);
    assert.equal((await call("DELETE", "/v1/groups/temp")).status, 404);
  });

  it("never leaves a binding to a deleted group when deletes and policy writes race", async () => {
    for (let i = 0; i < 8; i++) {
      await createGroup(`race-${i}`, { members: [user("bob")] });
      const [written, deleted] = await Promise.all([
        setPolicy({ role: "roles/workspaceMember", members: [`group:race-${i}`] }),
        call("DELETE", `/v1/groups/race-${i}`),
      ]);
      assert.ok([written.status, deleted.status].includes(200), JSON.stringify([written.body, deleted.body]));
      const exists = (await sql(`select 1 from user_group where id = 'race-${i}'`)).rowCount === 1;
      const bound = JSON.stringify((await sql(`select bindings from iam_policy where scope = 'workspaces/-'`)).rows[0].bindings).includes(`group:race-${i}`);
      assert.ok(exists || !bound, `groups/race-${i} was deleted while still bound`);
      if (!exists) assert.deepEqual(refusal(written).slice(0, 2), [400, "invalid_argument"], "the write that lost names a group that is gone");
      if (bound) assert.deepEqual(refusal(deleted).slice(0, 2), [400, "failed_precondition"], "the delete that lost names the binding");
      assert.equal((await setPolicy()).status, 200);
    }
  });

  it("shows a user's groups and tells whether one of them requires a second factor", async () => {
    await createGroup("b-group", { members: [user("bob")] });
    await createGroup("a-group", { members: [user("bob"), user("carol")], require2fa: true });
    assert.deepEqual((await call("GET", "/v1/users/bob")).body.groups, ["groups/a-group", "groups/b-group"]);
    const listed = await rest<{ users: { name: string; groups?: string[] }[] }>("GET", "/v1/users?filter=login_id:o", { token: token.admin });
    assert.deepEqual(listed.body.users.map((u) => [u.name, u.groups]), [["users/bob", ["groups/a-group", "groups/b-group"]], ["users/carol", ["groups/a-group"]]]);
    assert.deepEqual([await inRequire2faGroup(app.db, "bob"), await inRequire2faGroup(app.db, "dave")], [true, false]);
    await call("PATCH", "/v1/groups/a-group?updateMask=require2fa", { require2fa: false });
    assert.equal(await inRequire2faGroup(app.db, "bob"), false);
  });

  it("serves the same rules over Connect", async () => {
    const client = createClient(GroupService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const as = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
    const created = await client.createGroup({ groupId: "web", group: { title: "Web", members: [{ member: "user:login_id=dave", role: GroupMember_Role.OWNER }] } }, as(token.admin));
    assert.deepEqual([created.name, created.source, created.members[0]?.role], ["groups/web", Group_Source.LOCAL, GroupMember_Role.OWNER]);
    const updated = await client.updateGroup({ group: { name: "groups/web", require2fa: true }, updateMask: { paths: ["require2fa"] } }, as(token.dave));
    assert.equal(updated.require2fa, true);
    const codeOf = async (call: Promise<unknown>) => ConnectError.from(await call.then(() => undefined, (e: unknown) => e)).code;
    assert.equal(await codeOf(client.updateGroup({ group: { name: "groups/web" }, updateMask: { paths: ["title"] } }, as(token.carol))), Code.PermissionDenied);
    assert.equal(await codeOf(client.createGroup({ groupId: "web", group: {} }, as(token.admin))), Code.AlreadyExists);
    assert.equal((await client.getGroup({ name: "groups/web" }, as(token.admin))).title, "Web");
    await client.deleteGroup({ name: "groups/web" }, as(token.admin));
    assert.equal(await codeOf(client.getGroup({ name: "groups/web" }, as(token.admin))), Code.NotFound);
  });

  it("audits creates, updates, deletes and refusals", async () => {
    const mark = Number((await sql(`select coalesce(max(id), 0) as id from audit_log`)).rows[0].id);
    await createGroup("audited", { members: [user("bob", "OWNER")] });
    await call("PATCH", "/v1/groups/audited?updateMask=title", { title: "by owner" }, token.bob);
    await call("PATCH", "/v1/groups/audited?updateMask=title", { title: "x" }, token.carol);
    await call("DELETE", "/v1/groups/audited");
    const rows = await sql(`select actor, action, resource, status_code from audit_log where id > ${mark} and action like 'bb.groups.%' order by id`);
    assert.deepEqual(rows.rows.map((r) => Object.values(r)), [
      ["users/admin", "bb.groups.create", "groups/audited", "ok"],
      ["users/bob", "bb.groups.update", "groups/audited", "ok"],
      ["users/carol", "bb.groups.update", "groups/audited", "permission_denied"],
      ["users/admin", "bb.groups.delete", "groups/audited", "ok"],
    ]);
  });
});
