// OIDC single sign-on end to end (contract §4.8, §7.12, §8.1) against a real
// OpenID provider started on loopback: StartSso answers 303 to the provider,
// the browser's redirects land on the callback, which sets the session
// cookies and answers 303 to the same-origin path given at the start. The
// first sign-in creates the user, later ones match it; wrong, replayed and
// tampered callbacks are refused and recorded, as is an e-mail address the
// provider has not verified; two first sign-ins at once create the user
// once; SSO_GROUP_MAPPING grants and replaces only the bindings it manages
// (and locks no other policy); password sign-in turned off leaves SSO and the
// administrators' break-glass sign-in working.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AuthService } from "../shared/gen/svc/v1/auth_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { Browser } from "./helpers/browser.ts";
import { adminQuery } from "./helpers/db.ts";
import { startOidcProvider, type TestOidcProvider } from "./helpers/oidc-provider.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { oidcProviderJson, setProfileField } from "./helpers/sso.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

type Json = Record<string, any>;
const CALLBACK = "/v1/auth/oidc/callback";

describe("OIDC single sign-on", () => {
  let app: TestApp;
  let idp: TestOidcProvider;
  let rest: ReturnType<typeof restClient>;
  let admin = "";
  const audit = async (since: number) =>
    (await adminQuery(`select actor, action, resource, status_code, detail from audit_log where id > ${since} and action like 'bb.%' order by id`, app.database.url)).rows;
  const lastAuditId = async () => Number((await adminQuery(`select coalesce(max(id), 0) as id from audit_log`, app.database.url)).rows[0].id);

  /** Runs the browser from StartSso to the provider's redirect back to the callback, not requesting it. */
  const reachCallback = async (browser = new Browser(), redirect = "/projects") => {
    const start = await browser.request(new URL(`${app.baseUrl}/v1/auth/idps/corp:start?redirect=${encodeURIComponent(redirect)}`));
    assert.equal(start.status, 303, await start.text());
    const step = await browser.follow(start.headers.get("location")!, { stopBefore: (next) => next.pathname === CALLBACK });
    assert.equal(step.url.pathname, CALLBACK, `stopped at ${step.url} with ${step.response.status}`);
    return { browser, callback: step.url };
  };
  /** The whole sign-in: the callback's answer, and the browser holding its cookies. */
  const signInThroughIdp = async () => {
    const { browser, callback } = await reachCallback();
    return { browser, response: await browser.request(callback) };
  };
  const currentUser = async (browser: Browser) => {
    const me = await browser.request(new URL(`${app.baseUrl}/v1/users/me`));
    return { status: me.status, body: (await me.json()) as Json };
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    admin = await signInFirstAdmin(rest);
    idp = await startOidcProvider(`${app.baseUrl}${CALLBACK}`);
    const created = await rest<Json>("POST", "/v1/idps?idpId=corp", { token: admin, body: oidcProviderJson(idp.issuer) });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    // Written before any sign-in reads it, so that no process has cached the setting unset.
    const mapping = await rest<Json>("PATCH", "/v1/settings/SSO_GROUP_MAPPING?updateMask=*", {
      token: admin,
      body: {
        value: {
          ssoGroupMapping: {
            mappings: [
              { idp: "idps/corp", group: "dba", bindings: [{ role: "roles/workspaceDBA", scope: "workspaces/-" }] },
              { idp: "idps/corp", group: "dev", bindings: [{ role: "roles/projectDeveloper", scope: "projects/alpha" }] },
              { idp: "idps/other", group: "dev", bindings: [{ role: "roles/workspaceAdmin", scope: "workspaces/-" }] },
            ],
          },
        },
      },
    });
    assert.equal(mapping.status, 200, JSON.stringify(mapping.body));
  });
  after(async () => {
    await idp.close();
    await app.close();
  });

  it("cannot start without an external URL, and returns only to paths on this site", async () => {
    const started = await rest<Json>("GET", "/v1/auth/idps/corp:start");
    assert.deepEqual([started.status, started.body.code], [400, "failed_precondition"]);
    assert.match(started.body.message, /no external URL/);
    await setProfileField(rest, admin, "externalUrl", app.baseUrl);
    for (const redirect of ["https://evil.example.com/", "//evil.example.com", "/\\evil.example.com", "projects"]) {
      const reply = await rest<Json>("GET", `/v1/auth/idps/corp:start?redirect=${encodeURIComponent(redirect)}`);
      assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"], redirect);
      assert.match(reply.body.message, /redirect must be a path on this site/);
    }
    assert.equal((await rest<Json>("GET", "/v1/auth/idps/nobody:start")).status, 404);
    const location = (await fetch(`${app.baseUrl}/v1/auth/idps/corp:start`, { redirect: "manual" })).headers.get("location")!;
    const authorize = new URL(location);
    assert.equal(authorize.origin, idp.issuer);
    const params = Object.fromEntries(authorize.searchParams);
    assert.equal(params["code_challenge_method"], "S256");
    assert.equal(params["redirect_uri"], `${app.baseUrl}${CALLBACK}`);
    assert.deepEqual(params["scope"]!.split(" ").sort(), ["email", "openid", "profile"]);
    const stored = await adminQuery(`select nonce, code_verifier, redirect, expire_time - create_time as ttl from sso_login_state where state = '${params["state"]}'`, app.database.url);
    assert.equal(stored.rows[0].nonce, params["nonce"]);
    assert.equal(stored.rows[0].redirect, "/");
    assert.equal(stored.rows[0].ttl.minutes, 10);
  });

  it("signs a new user in end to end: created as an OIDC member, cookies set, 303 to the path given", async () => {
    const since = await lastAuditId();
    idp.account = { sub: "alice", email: "Alice@Example.com", name: "Alice", groups: [] };
    const { browser, response } = await signInThroughIdp();
    assert.equal(response.status, 303, await response.text());
    assert.equal(response.headers.get("location"), `${app.baseUrl}/projects`);
    const cookies = response.headers.getSetCookie();
    assert.equal(cookies.length, 2);
    for (const cookie of cookies) assert.match(cookie, /^(access|refresh)-token=[\w-]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/);
    const me = await currentUser(browser);
    assert.equal(me.status, 200);
    assert.deepEqual([me.body.name, me.body.email, me.body.title, me.body.source, me.body.type], ["users/alice@example.com", "alice@example.com", "Alice", "OIDC", "END_USER"]);
    const row = (await adminQuery(`select password_hash from principal where login_id = 'alice@example.com'`, app.database.url)).rows[0];
    assert.equal(row.password_hash, null);
    const policy = (await adminQuery(`select bindings from iam_policy where scope = 'workspaces/-'`, app.database.url)).rows[0].bindings as Json[];
    assert.ok(policy.some((b) => b.role === "roles/workspaceMember" && b.members.includes("user:login_id=alice@example.com")));
    const records = await audit(since);
    assert.deepEqual(records.map((r) => [r.action, r.actor, r.status_code]), [
      ["bb.auth.login", "users/alice@example.com", "ok"],
      ["bb.users.create", "users/alice@example.com", "ok"],
      ["bb.role.assign", "users/alice@example.com", "ok"],
    ]);
    assert.equal(records[0].detail.idp, "idps/corp");
    const password = await rest<Json>("POST", "/v1/auth/login", { body: { loginId: "alice@example.com", password: "anything-at-all" } });
    assert.equal(password.status, 401);
  });

  it("matches the user on later sign-ins and refreshes its title; the Connect callback answers the session", async () => {
    idp.account = { sub: "alice", email: "alice@example.com", name: "Alice Liddell", groups: [] };
    const { callback } = await reachCallback();
    const auth = createClient(AuthService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const reply = await auth.oAuthCallback(Object.fromEntries(callback.searchParams));
    assert.equal(reply.redirect, `${app.baseUrl}/projects`);
    assert.equal(reply.user?.title, "Alice Liddell");
    const me = await rest<Json>("GET", "/v1/users/me", { token: reply.accessToken });
    assert.deepEqual([me.status, me.body.name], [200, "users/alice@example.com"]);
    const count = await adminQuery(`select count(*)::int as n from principal where login_id = 'alice@example.com'`, app.database.url);
    assert.equal(count.rows[0].n, 1);
  });

  it("refuses a wrong state, a replayed callback and a nonce that does not match, each recorded with its reason", async () => {
    idp.account = { sub: "bob", email: "bob@example.com", name: "Bob", groups: [] };
    const failuresBefore = await loginMetric("failure");
    const since = await lastAuditId();
    const wrong = await reachCallback();
    const forged = new URL(wrong.callback);
    forged.searchParams.set("state", "not-a-state");
    const refused = await wrong.browser.request(forged);
    assert.equal(refused.status, 401);
    assert.match(((await refused.json()) as Json).message, /unknown, expired or already finished/);

    const replay = await reachCallback();
    assert.equal((await replay.browser.request(replay.callback)).status, 303);
    const again = await new Browser().request(replay.callback);
    assert.equal(again.status, 401);

    const tampered = await reachCallback();
    await adminQuery(`update sso_login_state set nonce = 'another-nonce' where state = '${tampered.callback.searchParams.get("state")}'`, app.database.url);
    const mismatch = await tampered.browser.request(tampered.callback);
    assert.equal(mismatch.status, 401);
    assert.match(((await mismatch.json()) as Json).message, /unexpected ID Token "nonce" claim value/);

    const records = (await audit(since)).filter((r) => r.action.startsWith("bb.auth.login"));
    assert.deepEqual(records.map((r) => [r.action, r.status_code, r.detail.reason ?? "", r.detail.idp ?? ""]), [
      ["bb.auth.login.fail", "unauthenticated", "unknown, expired or spent sign-in state", ""],
      ["bb.auth.login", "ok", "", "idps/corp"],
      ["bb.auth.login.fail", "unauthenticated", "unknown, expired or spent sign-in state", ""],
      ["bb.auth.login.fail", "unauthenticated", "identity provider answer rejected", "idps/corp"],
    ]);
    assert.equal(await loginMetric("failure"), failuresBefore + 3);
    const spent = await adminQuery(`select count(*)::int as n from sso_login_state where state = '${tampered.callback.searchParams.get("state")}'`, app.database.url);
    assert.equal(spent.rows[0].n, 0, "a refused callback still spends its state");
  });

  it("never takes over a local account, and honours disallow_signup for new users only", async () => {
    await makeUser(app.db, "carol@example.com");
    idp.account = { sub: "carol", email: "carol@example.com", name: "Carol", groups: [] };
    const local = await signInThroughIdp();
    assert.equal(local.response.status, 403);
    assert.match(((await local.response.json()) as Json).message, /local account and cannot sign in through an identity provider/);
    await setProfileField(rest, admin, "disallowSignup", true);
    try {
      idp.account = { sub: "dave", email: "dave@example.com", name: "Dave", groups: [] };
      const newcomer = await signInThroughIdp();
      assert.equal(newcomer.response.status, 403);
      assert.match(((await newcomer.response.json()) as Json).message, /sign-up is disabled/);
      idp.account = { sub: "alice", email: "alice@example.com", name: "Alice", groups: [] };
      assert.equal((await signInThroughIdp()).response.status, 303);
    } finally {
      await setProfileField(rest, admin, "disallowSignup", false);
    }
    const reasons = await adminQuery(`select detail->>'reason' as reason from audit_log where action = 'bb.auth.login.fail' and actor in ('users/carol@example.com', 'users/dave@example.com') order by id`, app.database.url);
    assert.deepEqual(reasons.rows.map((r) => r.reason), ["local account with the same login id", "sign-up is disabled"]);
  });

  it("SSO_GROUP_MAPPING grants the mapped roles and replaces them at the next sign-in, leaving other bindings alone", async () => {
    idp.account = { sub: "erin", email: "erin@example.com", name: "Erin", groups: ["dba", "unmapped"] };
    const first = await signInThroughIdp();
    assert.equal(first.response.status, 303);
    const workspace = async () => (await rest<Json>("GET", "/v1/workspaces/-:getIamPolicy", { token: admin })).body;
    const erin = "user:login_id=erin@example.com";
    const tagged = (policy: Json) => policy.bindings.filter((b: Json) => b.condition?.title === "SSO_GROUP_MAPPING idps/corp");
    let policy = await workspace();
    assert.deepEqual(tagged(policy).map((b: Json) => [b.role, b.members]), [["roles/workspaceDBA", [erin]]]);
    assert.match(tagged(policy)[0].condition.description, /groups dba/);
    const dbaOnly = await rest<Json>("GET", "/v1/users", { token: (await currentSession(first.browser)) });
    assert.equal(dbaOnly.status, 200, "workspaceDBA may list users");

    // An administrator's own grant to the same user, written back with the tagged binding unchanged.
    const written = await rest<Json>("POST", "/v1/workspaces/-:setIamPolicy", {
      token: admin,
      body: { policy: { bindings: [...policy.bindings, { role: "roles/sqlEditorUser", members: [erin] }], etag: policy.etag } },
    });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    assert.equal(tagged(written.body).length, 1, "the tag survives a policy write");

    idp.account = { ...idp.account, groups: ["dev"] };
    assert.equal((await signInThroughIdp()).response.status, 303);
    policy = await workspace();
    assert.deepEqual(tagged(policy), []);
    assert.ok(policy.bindings.some((b: Json) => b.role === "roles/sqlEditorUser" && b.members.includes(erin)), "other bindings stay");
    const project = (await adminQuery(`select bindings from iam_policy where scope = 'projects/alpha'`, app.database.url)).rows[0].bindings as Json[];
    assert.deepEqual(project.map((b) => [b.role, b.members, b.condition.title]), [["roles/projectDeveloper", [erin], "SSO_GROUP_MAPPING idps/corp"]]);
    const changes = await adminQuery(
      `select action, resource, detail->>'role' as role from audit_log where action in ('bb.role.assign', 'bb.role.revoke') and detail->>'member' = '${erin}' and detail ? 'grantedBy' order by id`,
      app.database.url,
    );
    assert.deepEqual(changes.rows.map((r) => Object.values(r)), [
      ["bb.role.assign", "workspaces/-", "roles/workspaceDBA"],
      ["bb.role.revoke", "workspaces/-", "roles/workspaceDBA"],
      ["bb.role.assign", "projects/alpha", "roles/projectDeveloper"],
    ]);
  });

  it("refuses an e-mail address the provider has not verified when the login id or e-mail comes from it", async () => {
    const since = await lastAuditId();
    idp.account = { sub: "mallory", email: "alice@example.com", email_verified: false, name: "Mallory", groups: [] };
    const { response } = await signInThroughIdp();
    assert.equal(response.status, 403);
    const body = (await response.json()) as Json;
    assert.equal(body.code, "permission_denied");
    assert.match(body.message, /has not verified this account's e-mail address \(email_verified is not true\)/);
    const records = (await audit(since)).filter((r) => r.action.startsWith("bb.auth.login"));
    assert.deepEqual(records.map((r) => [r.action, r.status_code, r.detail.reason]), [
      ["bb.auth.login.fail", "permission_denied", "e-mail address not verified by the identity provider"],
    ]);
    const title = (await adminQuery(`select title from principal where login_id = 'alice@example.com'`, app.database.url)).rows[0].title;
    assert.notEqual(title, "Mallory", "the existing user was not touched");
  });

  it("creates a user once when its first sign-in runs in two tabs at the same time", async () => {
    idp.account = { sub: "nina", email: "nina@example.com", name: "Nina", groups: [] };
    const tabs = [await reachCallback(), await reachCallback()];
    const responses = await Promise.all(tabs.map(({ browser, callback }) => browser.request(callback)));
    assert.deepEqual(responses.map((r) => r.status), [303, 303]);
    for (const { browser } of tabs) assert.equal((await currentUser(browser)).body.name, "users/nina@example.com");
    const created = await adminQuery(`select count(*)::int as n from audit_log where action = 'bb.users.create' and resource = 'users/nina@example.com'`, app.database.url);
    assert.equal(created.rows[0].n, 1);
    const rows = await adminQuery(`select count(*)::int as n from principal where login_id = 'nina@example.com'`, app.database.url);
    assert.equal(rows.rows[0].n, 1);
  });

  it("locks only the policies holding the mapping's own bindings for the user", async () => {
    idp.account = { sub: "olga", email: "olga@example.com", name: "Olga", groups: [] };
    assert.equal((await signInThroughIdp()).response.status, 303);
    // An administrator's binding of the user in another policy, which a sign-in has no business waiting for.
    await adminQuery(
      `insert into iam_policy (scope, bindings) values ('projects/beta', '[{"role": "roles/projectViewer", "members": ["user:login_id=olga@example.com"]}]')`,
      app.database.url,
    );
    const holder = new pg.Client({ connectionString: app.database.url });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query("select 1 from iam_policy where scope = 'projects/beta' for update");
      const { browser, callback } = await reachCallback();
      const response = await browser.request(callback, { signal: AbortSignal.timeout(5_000) });
      assert.equal(response.status, 303, "the sign-in did not wait for the unrelated policy");
    } finally {
      await holder.query("rollback");
      await holder.end();
    }
  });

  it("with password sign-in disabled: SSO works, administrators still sign in with a password, others do not", async () => {
    await makeUser(app.db, "frank");
    await setProfileField(rest, admin, "disallowPasswordSignin", true);
    try {
      idp.account = { sub: "alice", email: "alice@example.com", name: "Alice", groups: [] };
      const sso = await signInThroughIdp();
      assert.equal(sso.response.status, 303);
      assert.equal((await currentUser(sso.browser)).status, 200);
      const breakGlass = await rest<Json>("POST", "/v1/auth/login", { body: { loginId: ADMIN.loginId, password: STRONG_PASSWORD } });
      assert.equal(breakGlass.status, 200, JSON.stringify(breakGlass.body));
      const member = await rest<Json>("POST", "/v1/auth/login", { body: { loginId: "frank", password: STRONG_PASSWORD } });
      assert.deepEqual([member.status, member.body.code], [403, "permission_denied"]);
    } finally {
      await setProfileField(rest, admin, "disallowPasswordSignin", false);
    }
  });

  /** The access token a browser holds. */
  async function currentSession(browser: Browser): Promise<string> {
    return browser.cookie(new URL(app.baseUrl).host, "access-token")!;
  }

  async function loginMetric(status: string): Promise<number> {
    const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
    return Number(new RegExp(`^svc_auth_login_total\\{status="${status}"\\} (\\d+)$`, "m").exec(metrics)?.[1] ?? 0);
  }
});
