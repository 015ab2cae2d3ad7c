// Users and service accounts (contract §5.1, §6.5): creation by an
// administrator or by sign-up (once under concurrent creation), roles with
// expiry, service keys and their rotation, listing with filter, lock state and
// keyset paging, soft delete and undelete with the last-admin guard.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { UserService } from "../shared/gen/svc/v1/user_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { ADMIN, STRONG_PASSWORD } from "./helpers/users.ts";

type User = { name: string; loginId: string; type?: string; state?: string; serviceKey?: string; locked?: boolean; lockedUntil?: string };

describe("users", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let admin: string;
  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    const first = await rest<{ accessToken: string }>("POST", "/v1/auth/login", { body: { loginId: ADMIN.loginId, password: ADMIN.password } });
    const body = { user: { password: STRONG_PASSWORD }, updateMask: "password", currentPassword: ADMIN.password };
    assert.equal((await rest("PATCH", "/v1/users/admin", { token: first.body.accessToken, body })).status, 200);
    admin = first.body.accessToken;
  });
  after(() => app.close());

  const login = (loginId: string, password = STRONG_PASSWORD) =>
    rest<{ accessToken: string; requireResetPassword?: boolean }>("POST", "/v1/auth/login", { body: { loginId, password } });
  const create = (loginId: string, user: Record<string, unknown>, token?: string) =>
    rest<User>("POST", `/v1/users?loginId=${loginId}`, { token, body: user });
  const workspaceBindings = async () =>
    (await adminQuery("select bindings from iam_policy where scope = 'workspaces/-'", app.database.url)).rows[0].bindings as {
      role: string;
      members: string[];
      condition?: { expression: string };
    }[];

  it("creates a user who must change the password at first sign-in, with expiring roles", async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const reply = await create("Carol", { email: "Carol@Example.com", password: STRONG_PASSWORD, roles: [{ role: "roles/projectViewer", expiresAt }] }, admin);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.name, "users/carol");
    assert.equal((await login("carol")).body.requireResetPassword, true);
    const carols = (await workspaceBindings()).filter((b) => b.members.includes("user:login_id=carol"));
    assert.deepEqual(carols.map((b) => b.role), ["roles/workspaceMember", "roles/projectViewer"], "every new user is a member");
    const binding = carols[1];
    assert.equal(binding?.condition?.expression, `request.time < timestamp("${expiresAt}")`);
    const audit = await adminQuery(`select action, detail from audit_log where resource in ('users/carol', 'workspaces/-') and actor = 'users/admin' order by id`, app.database.url);
    assert.deepEqual(audit.rows, [
      { action: "bb.users.create", detail: {} },
      { action: "bb.role.assign", detail: { member: "user:login_id=carol", role: "roles/workspaceMember" } },
      { action: "bb.role.assign", detail: { member: "user:login_id=carol", role: "roles/projectViewer" } },
    ]);
    assert.equal((await create("carol", { password: STRONG_PASSWORD }, admin)).status, 409);
    assert.equal((await create("dave", { password: "weak" }, admin)).status, 400);
  });

  it("lets anyone sign up as a workspace member until sign-up is disallowed", async () => {
    const signUp = await create("erin", { password: STRONG_PASSWORD });
    assert.equal(signUp.status, 200, JSON.stringify(signUp.body));
    assert.equal((await login("erin")).body.requireResetPassword, undefined, "a self-chosen password needs no reset");
    assert.ok((await workspaceBindings()).some((b) => b.role === "roles/workspaceMember" && b.members.includes("user:login_id=erin")));
    const escalate = await create("frank", { password: STRONG_PASSWORD, roles: [{ role: "roles/workspaceAdmin" }] });
    assert.equal(escalate.status, 403);
    await mergeWorkspaceProfile(app, { disallowSignup: true });
    const refused = await create("grace", { password: STRONG_PASSWORD });
    assert.equal(refused.status, 403);
    assert.match(String((refused.body as unknown as { message: string }).message), /sign-up is disabled/);
  });

  it("takes UpdateUser's mask from the updateMask query parameter too (§0.4, §5.1)", async () => {
    assert.equal((await create("quinn", { password: STRONG_PASSWORD }, admin)).status, 200);
    const token = (await login("quinn")).body.accessToken;
    const changed = await rest<User>("PATCH", "/v1/users/quinn?updateMask=password", {
      token,
      body: { user: { password: "Another-Horse-7-Battery" }, currentPassword: STRONG_PASSWORD },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await login("quinn", "Another-Horse-7-Battery")).status, 200);
    const titled = await rest<User & { title?: string }>("PATCH", "/v1/users/quinn?update_mask=title", { token: admin, body: { user: { title: "Quinn Q" } } });
    assert.equal(titled.body.title, "Quinn Q", JSON.stringify(titled.body));
    const twice = await rest<{ message: string }>("PATCH", "/v1/users/quinn?updateMask=email", {
      token: admin,
      body: { user: { title: "x", email: "q@example.com" }, updateMask: "title" },
    });
    assert.equal(twice.status, 400);
    assert.match(twice.body.message, /updateMask is given in the body and in the query/);
    const same = await rest<User & { title?: string }>("PATCH", "/v1/users/quinn?updateMask=title", {
      token: admin,
      body: { user: { title: "Quinn R" }, updateMask: "title" },
    });
    assert.equal(same.body.title, "Quinn R", JSON.stringify(same.body));
  });

  it("gives a service account a key, shown once, that authenticates but cannot sign in with a password", async () => {
    const reply = await create("ci-bot", { type: "SERVICE_ACCOUNT" }, admin);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const key = reply.body.serviceKey!;
    assert.match(key, /^ssk_/);
    const me = await rest<User>("GET", "/v1/users/me", { token: key });
    assert.equal(me.body.loginId, "ci-bot");
    const read = await rest<User>("GET", "/v1/users/ci-bot", { token: admin });
    assert.equal(read.body.serviceKey, undefined, "the key is never read back");
    assert.equal((await login("ci-bot", "")).status, 401);
    const audit = await adminQuery(`select response from audit_log where resource = 'users/ci-bot' and action = 'bb.users.create'`, app.database.url);
    assert.equal(JSON.parse(audit.rows[0].response).serviceKey, "***");
  });

  it("creates a login id once when ten ask for it at the same time; the others get already_exists", async () => {
    const replies = await Promise.all(Array.from({ length: 10 }, () => create("racer", { password: STRONG_PASSWORD }, admin)));
    const outcomes = replies.map((r) => `${r.status} ${(r.body as unknown as { code?: string }).code ?? "ok"}`).sort();
    assert.deepEqual(outcomes, ["200 ok", ...Array(9).fill("409 already_exists")]);
    const rows = await adminQuery("select count(*)::int as n from principal where login_id = 'racer'", app.database.url);
    assert.equal(rows.rows[0].n, 1);
    const members = (await workspaceBindings()).filter((b) => b.members.includes("user:login_id=racer"));
    assert.deepEqual(members.map((b) => b.role), ["roles/workspaceMember"], "bound once");
    const records = await adminQuery(`select status_code from audit_log where action = 'bb.users.create' and resource = 'users/racer' order by id`, app.database.url);
    assert.deepEqual(records.rows.map((r) => r.status_code).sort(), [...Array(9).fill("already_exists"), "ok"]);
  });

  it("rotates a service account's key (shown once, the old one stops at once) and never gives it a password", async () => {
    const created = await create("deploy-bot", { type: "SERVICE_ACCOUNT" }, admin);
    const oldKey = created.body.serviceKey!;
    assert.equal((await rest("GET", "/v1/users/me", { token: oldKey })).status, 200);
    const password = await rest<User>("PATCH", "/v1/users/deploy-bot", { token: admin, body: { user: { password: STRONG_PASSWORD }, updateMask: "password" } });
    assert.equal(password.status, 400, JSON.stringify(password.body));
    assert.match((password.body as unknown as { message: string }).message, /service account.*never a password/);
    const rotated = await rest<User>("PATCH", "/v1/users/deploy-bot", { token: admin, body: { regenerateServiceKey: true } });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const newKey = rotated.body.serviceKey!;
    assert.match(newKey, /^ssk_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(newKey, oldKey);
    assert.equal((await rest("GET", "/v1/users/me", { token: oldKey })).status, 401, "the old key stops working");
    assert.equal((await rest<User>("GET", "/v1/users/me", { token: newKey })).body.loginId, "deploy-bot");
    assert.equal((await rest<User>("GET", "/v1/users/deploy-bot", { token: admin })).body.serviceKey, undefined, "never read back");

    // The account rotates its own key over Connect, with the key itself.
    const users = createClient(UserService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const own = await users.updateUser({ user: { name: "users/deploy-bot" }, regenerateServiceKey: true }, { headers: { authorization: `Bearer ${newKey}` } });
    assert.match(own.serviceKey, /^ssk_/);
    assert.equal((await rest("GET", "/v1/users/me", { token: newKey })).status, 401);
    assert.equal((await rest("GET", "/v1/users/me", { token: own.serviceKey })).status, 200);

    const records = await adminQuery(`select actor, status_code, response from audit_log where action = 'bb.users.update' and resource = 'users/deploy-bot' order by id`, app.database.url);
    assert.deepEqual(records.rows.map((r) => [r.actor, r.status_code, r.response ? JSON.parse(r.response).serviceKey : null]), [
      ["users/admin", "failed_precondition", null],
      ["users/admin", "ok", "***"],
      ["users/deploy-bot", "ok", "***"],
    ]);
    const leaks = await adminQuery(`select id from audit_log where request || response like '%${own.serviceKey}%' or request || response like '%${newKey}%'`, app.database.url);
    assert.deepEqual(leaks.rows, []);

    const endUser = await rest<{ code: string; message: string }>("PATCH", "/v1/users/carol", { token: admin, body: { regenerateServiceKey: true } });
    assert.deepEqual([endUser.status, endUser.body.code], [400, "failed_precondition"]);
    assert.match(endUser.body.message, /not a service account/);
    await adminQuery("update principal set require_reset_password = false where login_id = 'carol'", app.database.url);
    const carol = (await login("carol")).body.accessToken;
    const stranger = await rest("PATCH", "/v1/users/deploy-bot", { token: carol, body: { regenerateServiceKey: true } });
    assert.equal(stranger.status, 403, "another user's key needs bb.users.update");
    assert.equal((await rest("GET", "/v1/users/me", { token: own.serviceKey })).status, 200, "the refused rotation changed nothing");
  });

  it("lists users with a filter and stable keyset pages", async () => {
    for (const id of ["list-a", "list-b", "list-c"]) assert.equal((await create(id, { password: STRONG_PASSWORD, title: `Lister ${id}` }, admin)).status, 200);
    const first = await rest<{ users: User[]; nextPageToken: string }>("GET", "/v1/users?filter=title:lister&pageSize=2", { token: admin });
    assert.deepEqual(first.body.users.map((u) => u.loginId), ["list-a", "list-b"]);
    await create("list-0", { password: STRONG_PASSWORD, title: "Lister late" }, admin);
    const second = await rest<{ users: User[]; nextPageToken?: string }>("GET", `/v1/users?filter=title:lister&pageSize=2&pageToken=${first.body.nextPageToken}`, { token: admin });
    assert.deepEqual(second.body.users.map((u) => u.loginId), ["list-c", "list-0"]);
    const other = await rest("GET", `/v1/users?filter=type=END_USER&pageToken=${first.body.nextPageToken}`, { token: admin });
    assert.equal(other.status, 400, "a token from another query");
    const bad = await rest<{ message: string }>("GET", "/v1/users?filter=owner:me", { token: admin });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /unknown filter field "owner"/);
    const accounts = await rest<{ users: User[] }>("GET", "/v1/users?filter=type=SERVICE_ACCOUNT", { token: admin });
    assert.deepEqual(accounts.body.users.map((u) => u.loginId), ["ci-bot", "deploy-bot"]);
  });

  it("shows in the list which users are locked, and until when", async () => {
    await adminQuery(
      `insert into login_failure (login_id, failure_count, locked_until) values
         ('list-b', 11, now() + interval '10 minutes'), ('list-c', 11, now() - interval '1 minute'), ('list-0', 3, null)`,
      app.database.url,
    );
    const lockedUntil = (await adminQuery("select locked_until from login_failure where login_id = 'list-b'", app.database.url)).rows[0].locked_until as Date;
    const listed = await rest<{ users: User[] }>("GET", "/v1/users?filter=title:lister", { token: admin });
    assert.deepEqual(
      listed.body.users.map((u) => [u.loginId, u.locked ?? false, u.lockedUntil]),
      [["list-a", false, undefined], ["list-b", true, lockedUntil.toISOString()], ["list-c", false, undefined], ["list-0", false, undefined]],
    );
  });

  it("keeps one administrator when two delete themselves at once", async () => {
    assert.equal((await create("ivy", { password: STRONG_PASSWORD }, admin)).status, 200);
    await adminQuery("update principal set require_reset_password = false where login_id = 'ivy'", app.database.url);
    const policy = await rest<{ etag: string; bindings: object[] }>("GET", "/v1/workspaces/-:getIamPolicy", { token: admin });
    const bindings = [...policy.body.bindings, { role: "roles/workspaceAdmin", members: ["user:login_id=ivy"] }];
    assert.equal((await rest("POST", "/v1/workspaces/-:setIamPolicy", { token: admin, body: { policy: { bindings } } })).status, 200);
    const ivy = (await login("ivy")).body.accessToken;
    const replies = await Promise.all([
      rest("DELETE", "/v1/users/ivy", { token: ivy }),
      rest("DELETE", "/v1/users/admin", { token: admin }),
    ]);
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 400]);
    const active = await adminQuery("select login_id from principal where login_id in ('admin', 'ivy') and state = 'ACTIVE'", app.database.url);
    assert.equal(active.rowCount, 1);
    const survivor = active.rows[0].login_id as string;
    const deleted = survivor === "admin" ? "ivy" : "admin";
    const restored = await rest("POST", `/v1/users/${deleted}:undelete`, { token: survivor === "admin" ? admin : ivy, body: {} });
    assert.equal(restored.status, 200);
    if (deleted === "admin") admin = (await login("admin")).body.accessToken; // its sessions ended with the delete
    const reset = await rest("POST", "/v1/workspaces/-:setIamPolicy", { token: admin, body: { policy: { bindings: policy.body.bindings } } });
    assert.equal(reset.status, 200, "admin is the only administrator again");
  });

  it("soft-deletes a user, ending its sessions, and restores it; the last admin stays", async () => {
    assert.equal((await create("henry", { password: STRONG_PASSWORD }, admin)).status, 200);
    await adminQuery("update principal set require_reset_password = false where login_id = 'henry'", app.database.url);
    const session = (await login("henry")).body.accessToken;
    assert.equal((await rest("DELETE", "/v1/users/henry", { token: admin })).status, 200);
    assert.equal((await rest("GET", "/v1/users/me", { token: session })).status, 401);
    assert.equal((await login("henry")).status, 401);
    const listed = await rest<{ users: User[] }>("GET", "/v1/users?filter=login_id:henry&showDeleted=true", { token: admin });
    assert.equal(listed.body.users[0]?.state, "DELETED");
    const restored = await rest<User>("POST", "/v1/users/henry:undelete", { token: admin, body: {} });
    assert.equal(restored.body.state, "ACTIVE");
    assert.equal((await login("henry")).status, 200);
    const last = await rest<{ code: string }>("DELETE", "/v1/users/admin", { token: admin });
    assert.equal(last.status, 400);
    assert.equal(last.body.code, "failed_precondition");
  });
});
