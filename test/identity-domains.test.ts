// Workspace e-mail domains (WORKSPACE_PROFILE.domains, enforce_identity_domain;
// contract §7.2): while enforced, every user or group e-mail written — sign-up,
// CreateUser, UpdateUser, CreateGroup, UpdateGroup, over REST and Connect —
// must belong to a listed domain (exactly, ignoring case; subdomains are not
// included), service accounts are exempt and an end user without an e-mail
// is judged by its login id. Turning the rule on keeps the users and groups
// already outside and reports them; turning it off lifts the check.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { GroupService } from "../shared/gen/svc/v1/group_service_pb.js";
import { UserService, UserType } from "../shared/gen/svc/v1/user_service_pb.js";
import { createLogger } from "../shared/platform/logger.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { eventually } from "./helpers/instances.ts";
import { restClient, type RestReply } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

type Json = Record<string, any>;
const OUTSIDE = (address: string) => `e-mail "${address}" is outside the workspace's domains: example.com, example.org`;

describe("workspace e-mail domains", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let admin = "";
  const logLines: Json[] = [];
  const transport = () => createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" });
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  const sql = (text: string) => adminQuery(text, app.database.url);

  const setDomains = (enforce: boolean, domains: string[], extra: Json = {}) =>
    rest<Json>("PATCH", "/v1/settings/WORKSPACE_PROFILE?updateMask=workspaceProfile.domains,workspaceProfile.enforceIdentityDomain,workspaceProfile.title", {
      token: admin,
      body: { value: { workspaceProfile: { domains, enforceIdentityDomain: enforce, title: "Acme", ...extra } } },
    });
  const lastSettingDetail = async () =>
    (await sql(`select detail from audit_log where action = 'bb.settings.set' order by id desc limit 1`)).rows[0].detail as Json;
  const createUser = (loginId: string, user: Json, token?: string) =>
    rest<Json>("POST", `/v1/users?loginId=${encodeURIComponent(loginId)}`, { token, body: { password: STRONG_PASSWORD, ...user } });
  const createGroup = (id: string, group: Json) => rest<Json>("POST", `/v1/groups?groupId=${id}`, { token: admin, body: group });
  const refusedOutside = (reply: RestReply<Json>, message: string) => {
    assert.deepEqual([reply.status, reply.body.code, reply.body.message], [400, "failed_precondition", message]);
  };
  const connectCode = async (call: Promise<unknown>) => ConnectError.from(await call.then(() => undefined, (e: unknown) => e));
  const userExists = async (loginId: string) => (await sql(`select 1 from principal where login_id = '${loginId}'`)).rows.length === 1;
  const outsiderNames = async () => {
    const listed = await rest<Json>("GET", "/v1/users?filter=outside_domains%20%3D%20true", { token: admin });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    return (listed.body.users ?? []).map((u: Json) => u.name as string);
  };

  before(async () => {
    const logger = createLogger({ json: true, debug: false, destination: { write: (line: string) => void logLines.push(JSON.parse(line)) } });
    app = await startTestApp({ bootstrap: ADMIN, deps: { logger } });
    rest = restClient(app.baseUrl);
    admin = await signInFirstAdmin(rest);
    // Written while nothing is enforced: the outsiders the report must find.
    await makeUser(app.db, "alice"); // alice@example.com
    for (const [loginId, email] of [["mallory", "mallory@evil.com"], ["eve", "eve@eu.example.com"], ["zed@example.org", ""]]) {
      assert.equal((await createUser(loginId!, { email }, admin)).status, 200);
    }
    assert.equal((await createUser("robot", { type: "SERVICE_ACCOUNT", email: "robot@evil.com", password: "" }, admin)).status, 200);
    for (const [id, email] of [["ops", "ops@evil.com"], ["eng", "eng@example.com"], ["misc", ""]]) assert.equal((await createGroup(id!, { email })).status, 200);
  });
  after(() => app.close());

  it("turning the rule on keeps the users and groups outside it, and reports them in the record, the log and ListUsers", async () => {
    const enabled = await setDomains(true, ["Example.com", "example.org"]);
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
    assert.deepEqual(enabled.body.value.workspaceProfile.domains, ["example.com", "example.org"]);
    const report = (await lastSettingDetail()).outsideDomains;
    // admin has neither an e-mail nor an address as login id; robot is a service account; zed's login id is an address inside.
    assert.deepEqual(report, {
      domains: ["example.com", "example.org"],
      userCount: 3,
      users: ["users/admin", "users/eve", "users/mallory"],
      groupCount: 1,
      groups: ["groups/ops"],
    });
    const warning = logLines.find((line) => line.level === "WARN" && /outside the workspace's domains/.test(line.msg));
    assert.ok(warning, "a WARN line reports them");
    assert.deepEqual([warning.users, warning.groups], [3, 1]);
    assert.match(warning.msg, /^3 users and 1 groups have e-mail addresses outside/);

    const states = await sql(`select login_id, state from principal where login_id in ('mallory', 'eve') order by login_id`);
    assert.deepEqual(states.rows, [{ login_id: "eve", state: "ACTIVE" }, { login_id: "mallory", state: "ACTIVE" }]);
    assert.equal((await sql(`select count(*)::int as n from user_group where id = 'ops'`)).rows[0].n, 1);
    assert.ok(await signIn(rest, "mallory"), "an existing outsider still signs in");

    await eventually(async () => (await outsiderNames()).length === 3);
    assert.deepEqual(await outsiderNames(), ["users/admin", "users/mallory", "users/eve"]);
    const inside = await rest<Json>("GET", "/v1/users?filter=outside_domains=false%20AND%20type=END_USER", { token: admin });
    assert.deepEqual(inside.body.users.map((u: Json) => u.name), ["users/alice", "users/zed@example.org"]);

    for (const domains of [["example.org", "example.com"], ["example.com", "example.org"]]) {
      assert.equal((await setDomains(true, domains, { title: "Acme Inc" })).status, 200);
      assert.equal((await lastSettingDetail()).outsideDomains, undefined, "no report when the domains stay the same");
    }
  });

  it("refuses sign-up, CreateUser and an e-mail change outside the domains; case is ignored, subdomains are not included", async () => {
    refusedOutside(await createUser("bob", { email: "bob@evil.com" }), OUTSIDE("bob@evil.com"));
    refusedOutside(await createUser("bob", { email: "bob@eu.example.com" }, admin), OUTSIDE("bob@eu.example.com"));
    refusedOutside(await createUser("bob", { email: "bob@example.com.evil.com" }, admin), OUTSIDE("bob@example.com.evil.com"));
    assert.equal(await userExists("bob"), false);
    const signedUp = await createUser("bob", { email: "Bob@EXAMPLE.com" });
    assert.deepEqual([signedUp.status, signedUp.body.email], [200, "bob@example.com"]);

    const users = createClient(UserService, transport());
    const viaConnect = await connectCode(users.createUser({ loginId: "carl", user: { email: "carl@evil.com", password: STRONG_PASSWORD } }, as(admin)));
    assert.deepEqual([viaConnect.code, viaConnect.rawMessage], [Code.FailedPrecondition, OUTSIDE("carl@evil.com")]);
    const noEmail = await createUser("carl", { email: "" }, admin);
    refusedOutside(noEmail, `user "carl" has no e-mail address, and the workspace admits only e-mail addresses of its domains: example.com, example.org`);
    refusedOutside(await createUser("carl@evil.com", { email: "" }, admin), `login id "carl@evil.com" is outside the workspace's domains: example.com, example.org`);
    assert.equal((await createUser("carl@example.org", { email: "" }, admin)).status, 200, "a login id that is an address inside stands for the e-mail");
    const bot = await users.createUser({ loginId: "bot", user: { type: UserType.SERVICE_ACCOUNT, email: "bot@evil.com" } }, as(admin));
    assert.equal(bot.email, "bot@evil.com", "service accounts are exempt");

    const patch = (loginId: string, user: Json, mask: string, token = admin) =>
      rest<Json>("PATCH", `/v1/users/${loginId}`, { token, body: { user, updateMask: mask } });
    refusedOutside(await patch("alice", { email: "alice@evil.com" }, "email"), OUTSIDE("alice@evil.com"));
    assert.equal((await sql(`select email from principal where login_id = 'alice'`)).rows[0].email, "alice@example.com");
    assert.equal((await patch("alice", { email: "Alice@Example.ORG" }, "email")).body.email, "alice@example.org");
    assert.equal((await patch("mallory", { title: "Mallory M." }, "title")).status, 200, "an outsider's other fields still change");
    const bobToken = await signIn(rest, "bob");
    const selfChange = await connectCode(users.updateUser({ user: { name: "users/bob", email: "bob@evil.com" }, updateMask: { paths: ["email"] } }, as(bobToken)));
    assert.deepEqual([selfChange.code, selfChange.rawMessage], [Code.FailedPrecondition, OUTSIDE("bob@evil.com")]);
    refusedOutside(await patch("bob", { email: "" }, "email", bobToken), `user "bob" has no e-mail address, and the workspace admits only e-mail addresses of its domains: example.com, example.org`);

    const refusals = await sql(`select action, status_code from audit_log where resource = 'users/carl' order by id`);
    assert.deepEqual(refusals.rows.map((r) => [r.action, r.status_code]), [["bb.users.create", "failed_precondition"], ["bb.users.create", "failed_precondition"]]);
  });

  it("refuses group e-mails outside the domains on create and update; a group without one passes", async () => {
    refusedOutside(await createGroup("sales", { email: "sales@evil.com" }), `group e-mail "sales@evil.com" is outside the workspace's domains: example.com, example.org`);
    const groups = createClient(GroupService, transport());
    const viaConnect = await connectCode(groups.createGroup({ groupId: "sales", group: { email: "sales@eu.example.com" } }, as(admin)));
    assert.equal(viaConnect.code, Code.FailedPrecondition);
    assert.equal((await sql(`select count(*)::int as n from user_group where id = 'sales'`)).rows[0].n, 0);
    assert.equal((await createGroup("sales", { email: "Sales@Example.org" })).body.email, "sales@example.org");
    assert.equal((await createGroup("guild", {})).status, 200);

    const update = (id: string, group: Json, mask: string) =>
      rest<Json>("PATCH", `/v1/groups/${id}?updateMask=${mask}`, { token: admin, body: group });
    refusedOutside(await update("sales", { email: "sales@evil.com" }, "email"), `group e-mail "sales@evil.com" is outside the workspace's domains: example.com, example.org`);
    const connectUpdate = await connectCode(groups.updateGroup({ group: { name: "groups/guild", email: "guild@evil.com" }, updateMask: { paths: ["email"] } }, as(admin)));
    assert.equal(connectUpdate.code, Code.FailedPrecondition);
    assert.equal((await update("ops", { title: "Operations" }, "title")).status, 200, "an outsider group's other fields still change");
    assert.equal((await update("sales", { email: "" }, "email")).status, 200);
  });

  it("changing the domains while on reports again; turning the rule off lifts the check", async () => {
    assert.equal((await setDomains(true, ["example.com"])).status, 200);
    const report = (await lastSettingDetail()).outsideDomains;
    assert.deepEqual([report.userCount, report.groupCount], [6, 1]);
    assert.deepEqual(report.users, ["users/admin", "users/alice", "users/carl@example.org", "users/eve", "users/mallory", "users/zed@example.org"]);

    assert.equal((await setDomains(false, ["example.com"])).status, 200);
    assert.equal((await lastSettingDetail()).outsideDomains, undefined);
    assert.equal((await createUser("dora", { email: "dora@evil.com" })).status, 200);
    assert.equal((await createGroup("outsiders", { email: "outsiders@evil.com" })).status, 200);
    const patched = await rest<Json>("PATCH", "/v1/users/alice", { token: admin, body: { user: { email: "alice@evil.com" }, updateMask: "email" } });
    assert.equal(patched.body.email, "alice@evil.com");
  });
});
