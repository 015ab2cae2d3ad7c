// Sign-in and sessions (contract §4.2, §4.3, §4.6, §4.7): the bootstrap admin
// must change its password first; tokens are opaque, revocable at once,
// rotated on refresh with theft detection; cookies for browsers (refresh from
// the cookie, cleared at logout, Secure over https); the same over Connect.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AuthService } from "../shared/gen/svc/v1/auth_service_pb.js";
import { UserService } from "../shared/gen/svc/v1/user_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

type Login = { accessToken: string; refreshToken: string; requireResetPassword?: boolean; user: { name: string } };

/** A browser sign-in (`web: true`) as bob, or `loginId`. */
function webLogin(baseUrl: string, headers: Record<string, string> = {}, loginId = "bob"): Promise<Response> {
  return fetch(`${baseUrl}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ loginId, password: STRONG_PASSWORD, web: true }),
  });
}

/** name → value of Set-Cookie headers. */
function cookieJar(setCookies: string[]): Map<string, string> {
  return new Map(setCookies.map((c) => c.split(";")[0]!.split("=") as [string, string]));
}

describe("sign-in and sessions", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    await makeUser(app.db, "bob");
  });
  after(() => app.close());

  const login = (loginId: string, password: string, extra: Record<string, unknown> = {}) =>
    rest<Login>("POST", "/v1/auth/login", { body: { loginId, password, ...extra } });
  const auditActions = async (actor: string) =>
    (await adminQuery(`select action, severity from audit_log where actor = '${actor}' order by id`, app.database.url)).rows;

  it("lets the bootstrap admin do nothing but change its password first", async () => {
    const before = await rest<{ needAdminSetup?: boolean; lastActiveTime?: string }>("GET", "/v1/actuator/info");
    assert.equal(before.body.needAdminSetup, true);
    assert.equal(before.body.lastActiveTime, undefined);
    const first = await login("ADMIN", ADMIN.password);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.requireResetPassword, true);
    assert.equal(first.body.user.name, "users/admin");
    const token = first.body.accessToken;
    assert.match(token, /^sat_[A-Za-z0-9_-]{43}$/);
    assert.equal((await rest("GET", "/v1/users/me", { token })).status, 200);
    const blocked = await rest("GET", "/v1/workspaces/-:getIamPolicy", { token });
    assert.equal(blocked.status, 403);
    assert.match(String(blocked.body.message), /password change required/);
    const sneaky = await rest("POST", "/v1/users?loginId=sneaky", { token, body: { type: "SERVICE_ACCOUNT" } });
    assert.equal(sneaky.status, 403, "a public call runs as anonymous: the pending admin grants nothing");
    assert.equal((await adminQuery("select 1 from principal where login_id = 'sneaky'", app.database.url)).rowCount, 0);

    const weak = await rest("PATCH", "/v1/users/admin", { token, body: { user: { password: "short" }, updateMask: "password", currentPassword: ADMIN.password } });
    assert.equal(weak.status, 400);
    assert.match(String(weak.body.message), /at least 12 characters.*a number/);
    const changed = await rest("PATCH", "/v1/users/admin", { token, body: { user: { password: STRONG_PASSWORD }, updateMask: "password", currentPassword: ADMIN.password } });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const policy = await rest<{ bindings: { role: string; members: string[] }[] }>("GET", "/v1/workspaces/-:getIamPolicy", { token });
    assert.equal(policy.status, 200, "the same session goes on after the change");
    const info = await rest<{ needAdminSetup?: boolean; lastActiveTime?: string }>("GET", "/v1/actuator/info");
    assert.equal(info.body.needAdminSetup, undefined, "false once the administrator set its password");
    assert.ok(Date.now() - Date.parse(info.body.lastActiveTime ?? "") < 60_000);
    assert.deepEqual(policy.body.bindings, [{ role: "roles/workspaceAdmin", members: ["user:login_id=admin"] }]);
    const records = await adminQuery(`select action, status_code from audit_log where actor = 'users/admin' order by id`, app.database.url);
    assert.deepEqual(
      records.rows.map((r) => `${r.action} ${r.status_code}`),
      ["bb.auth.login ok", "bb.auth.password.change invalid_argument", "bb.auth.password.change ok"],
    );
  });

  it("refuses a wrong password with one message for unknown ids and wrong passwords, and records the client IP", async () => {
    const wrong = await login("bob", "nope");
    const unknown = await login("nobody", "nope");
    for (const reply of [wrong, unknown]) {
      assert.equal(reply.status, 401);
      assert.equal((reply.body as unknown as { message: string }).message, "invalid login id or password");
    }
    const [row] = (
      await adminQuery(`select actor, actor_ip, severity, detail, request from audit_log where actor = 'users/nobody'`, app.database.url)
    ).rows;
    assert.equal(row.actor_ip, "127.0.0.1");
    assert.equal(row.severity, "INFO");
    assert.deepEqual(row.detail, { failureCount: 1, reason: "wrong login id or password" });
    assert.equal(JSON.parse(row.request).password, "***");
    const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
    const failures = Number(/^svc_auth_login_total\{status="failure"\} (\d+)$/m.exec(metrics)?.[1]);
    assert.ok(failures >= 2, metrics.split("\n").filter((l) => l.startsWith("svc_auth_login_total")).join("\n"));
  });

  it("revokes the session at once on logout", async () => {
    const { body } = await login("bob", STRONG_PASSWORD);
    assert.equal((await rest("GET", "/v1/users/me", { token: body.accessToken })).status, 200);
    assert.equal((await rest("POST", "/v1/auth/logout", { token: body.accessToken, body: {} })).status, 200);
    const after = await rest("GET", "/v1/users/me", { token: body.accessToken });
    assert.equal(after.status, 401);
    assert.equal(after.headers.get("www-authenticate"), "Bearer");
    assert.equal((await rest("POST", "/v1/auth/refresh", { body: { refreshToken: body.refreshToken } })).status, 401);
    assert.deepEqual((await auditActions("users/bob")).at(-1), { action: "bb.auth.logout", severity: "INFO" });
  });

  it("rotates refresh tokens and revokes the family when a spent one comes back", async () => {
    const { body: first } = await login("bob", STRONG_PASSWORD);
    const second = await rest<Login>("POST", "/v1/auth/refresh", { body: { refreshToken: first.refreshToken } });
    assert.equal(second.status, 200);
    assert.notEqual(second.body.accessToken, first.accessToken);
    assert.equal((await rest("GET", "/v1/users/me", { token: second.body.accessToken })).status, 200);
    const replay = await rest("POST", "/v1/auth/refresh", { body: { refreshToken: first.refreshToken } });
    assert.equal(replay.status, 401);
    assert.match(String(replay.body.message), /already used/);
    assert.equal((await rest("GET", "/v1/users/me", { token: second.body.accessToken })).status, 401, "the family is revoked");
  });

  it("sets HttpOnly cookies for browsers and accepts them", async () => {
    const res = await fetch(`${app.baseUrl}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ loginId: "bob", password: STRONG_PASSWORD, web: true }),
    });
    const cookies = res.headers.getSetCookie();
    assert.equal(cookies.length, 2);
    for (const cookie of cookies) assert.match(cookie, /; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/);
    const access = cookies.find((c) => c.startsWith("access-token="))!.split(";")[0]!;
    const me = await fetch(`${app.baseUrl}/v1/users/me`, { headers: { cookie: access } });
    assert.equal(me.status, 200);
  });

  it("refreshes from the refresh-token cookie and clears both cookies at logout", async () => {
    const signedIn = await webLogin(app.baseUrl);
    const cookies = cookieJar(signedIn.headers.getSetCookie());
    const refreshed = await fetch(`${app.baseUrl}/v1/auth/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `refresh-token=${cookies.get("refresh-token")}` },
      body: JSON.stringify({ web: true }),
    });
    assert.equal(refreshed.status, 200, await refreshed.clone().text());
    const pair = (await refreshed.json()) as Login;
    assert.notEqual(pair.refreshToken, cookies.get("refresh-token"));
    const renewed = cookieJar(refreshed.headers.getSetCookie());
    assert.deepEqual([renewed.get("access-token"), renewed.get("refresh-token")], [pair.accessToken, pair.refreshToken], "the new pair is set as cookies");

    const logout = await fetch(`${app.baseUrl}/v1/auth/logout`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `access-token=${pair.accessToken}` },
      body: "{}",
    });
    assert.equal(logout.status, 200);
    const cleared = logout.headers.getSetCookie();
    assert.deepEqual(cleared.map((c) => c.split(";")[0]).sort(), ["access-token=", "refresh-token="]);
    for (const cookie of cleared) assert.match(cookie, /; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict$/);
    assert.equal((await fetch(`${app.baseUrl}/v1/users/me`, { headers: { cookie: `access-token=${pair.accessToken}` } })).status, 401);
    const spent = await rest("POST", "/v1/auth/refresh", { body: { refreshToken: cookies.get("refresh-token") } });
    assert.match(String(spent.body.message), /already used/, "the cookie's token was spent by the refresh");
  });

  it("marks the cookies Secure behind a trusted proxy that says https, and not otherwise", async () => {
    const viaProxy = await webLogin(app.baseUrl, { "x-forwarded-proto": "https" });
    for (const cookie of viaProxy.headers.getSetCookie()) assert.match(cookie, /; SameSite=Strict; Secure$/);
    const plain = await webLogin(app.baseUrl);
    for (const cookie of plain.headers.getSetCookie()) assert.doesNotMatch(cookie, /Secure/);
  });

  it("marks the cookies Secure when the external URL is https", async () => {
    const own = await startTestApp({ flags: ["--external-url", "https://svc.example.com"] });
    try {
      await makeUser(own.db, "carl");
      const reply = await webLogin(own.baseUrl, {}, "carl");
      const cookies = reply.headers.getSetCookie();
      assert.equal(cookies.length, 2);
      for (const cookie of cookies) assert.match(cookie, /; SameSite=Strict; Secure$/);
    } finally {
      await own.close();
    }
  });

  it("serves sign-in over Connect as well, and rejects HTTP Basic", async () => {
    const transport = createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" });
    const auth = createClient(AuthService, transport);
    const reply = await auth.login({ loginId: "bob", password: STRONG_PASSWORD });
    const users = createClient(UserService, transport);
    const me = await users.getCurrentUser({}, { headers: { authorization: `Bearer ${reply.accessToken}` } });
    assert.equal(me.loginId, "bob");
    await assert.rejects(users.getCurrentUser({}, { headers: { authorization: "Basic Ym9iOng=" } }), /basic authentication is not supported/);
  });

  it("ends an idle session after inactive_session_timeout", async () => {
    const { body } = await login("bob", STRONG_PASSWORD);
    await mergeWorkspaceProfile(app, { inactiveSessionTimeout: "1h" });
    assert.equal((await rest("GET", "/v1/users/me", { token: body.accessToken })).status, 200);
    await adminQuery(`update session_token set last_used_time = now() - interval '2 hours'`, app.database.url);
    assert.equal((await rest("GET", "/v1/users/me", { token: body.accessToken })).status, 401);
  });
});
