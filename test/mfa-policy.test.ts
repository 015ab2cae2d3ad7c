// Who must have a second factor, and resetting one (contract §5.1, §4.3,
// §4.7): with require_2fa a user without a factor gets a session limited to
// enrolment (requireMfaEnrollment), which becomes a normal one once enrolled;
// workspace administrators are exempt unless a require-2fa group holds them;
// users of an identity provider are not asked. ResetMfa and the server
// command clear the factor and end the user's sessions.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { UserService } from "../shared/gen/svc/v1/user_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";
import { adminQuery } from "./helpers/db.ts";
import { enrol, totpCode, type MfaUser } from "./helpers/mfa.ts";
import { restClient } from "./helpers/rest.ts";
import { killAllServers, runUntilExit } from "./helpers/server-process.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

type Login = { accessToken?: string; refreshToken?: string; requireMfaEnrollment?: boolean; mfaTempToken?: string; code?: string; message?: string };

const ENROL_FIRST = "second factor enrolment required: enrol a TOTP factor with UpdateUser first";

describe("required second factor and resets", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let admin = "";
  const sql = async <T = Record<string, unknown>>(text: string) => (await adminQuery(text, app.database.url)).rows as T[];
  const login = (loginId: string) => rest<Login>("POST", "/v1/auth/login", { body: { loginId, password: STRONG_PASSWORD } });
  const patch = (loginId: string, token: string, body: object) => rest<MfaUser>("PATCH", `/v1/users/${loginId}`, { token, body });
  const setProfile = (value: Record<string, unknown>) => mergeWorkspaceProfile(app, value);

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    for (const id of ["bob", "carol", "dave", "erin", "frank"]) await makeUser(app.db, id);
    admin = await signInFirstAdmin(rest);
    await setProfile({ require2fa: true });
  });
  after(async () => {
    await killAllServers();
    await app.close();
  });

  it("limits a user without a factor to enrolment, then lifts the limit on the same session", async () => {
    const first = await login("bob");
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.requireMfaEnrollment, true);
    const token = first.body.accessToken!;
    const refused = await rest<Login>("GET", "/v1/users/bob", { token });
    assert.deepEqual([refused.status, refused.body.code, refused.body.message], [403, "permission_denied", ENROL_FIRST]);
    assert.equal((await rest("GET", "/v1/users/me", { token })).status, 200);
    const title = await patch("bob", token, { user: { title: "Bob" }, updateMask: "title" });
    assert.equal(title.status, 403);
    const refreshed = await rest<Login>("POST", "/v1/auth/refresh", { body: { refreshToken: first.body.refreshToken } });
    assert.equal(refreshed.body.requireMfaEnrollment, true, "a refresh keeps the limit");
    const fresh = refreshed.body.accessToken!;
    assert.equal((await rest("GET", "/v1/users/bob", { token: fresh })).status, 403);

    const started = await patch("bob", fresh, { regenerateTempMfaSecret: true });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const enabled = await patch("bob", fresh, { user: { mfaEnabled: true }, updateMask: "mfaEnabled", otpCode: await totpCode(started.body.tempOtpSecret!) });
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
    assert.equal(enabled.body.tempRecoveryCodes?.length, 10);
    assert.equal((await rest("GET", "/v1/users/bob", { token: fresh })).status, 200, "the same session goes on");
    assert.equal((await patch("bob", fresh, { user: { title: "Bob" }, updateMask: "title" })).status, 200);

    const next = await login("bob");
    assert.ok(next.body.mfaTempToken && !next.body.accessToken, "the next sign-in asks for the code");
    const disable = await patch("bob", fresh, { user: { mfaEnabled: false }, updateMask: "mfaEnabled", currentPassword: STRONG_PASSWORD });
    assert.deepEqual([disable.status, disable.body.code], [400, "failed_precondition"]);
    assert.match(disable.body.message!, /require_2fa/);
  });

  it("exempts workspace administrators, unless a group that requires a factor holds them", async () => {
    const plain = await rest<Login>("POST", "/v1/auth/login", { body: { loginId: "admin", password: STRONG_PASSWORD } });
    assert.equal(plain.body.requireMfaEnrollment, undefined);
    assert.equal((await rest("GET", "/v1/workspaces/-:getIamPolicy", { token: plain.body.accessToken })).status, 200);

    await sql(`insert into user_group (id, title, require_2fa) values ('security', 'Security', true);
               insert into group_member (group_id, login_id) values ('security', 'admin'), ('security', 'carol')`);
    await setProfile({ require2fa: false });
    const grouped = await rest<Login>("POST", "/v1/auth/login", { body: { loginId: "admin", password: STRONG_PASSWORD } });
    assert.equal(grouped.body.requireMfaEnrollment, true);
    const refused = await rest<Login>("GET", "/v1/workspaces/-:getIamPolicy", { token: grouped.body.accessToken });
    assert.deepEqual([refused.status, refused.body.message], [403, ENROL_FIRST]);
    assert.equal((await login("carol")).body.requireMfaEnrollment, true, "the group requires it without require_2fa");
    assert.equal((await login("dave")).body.requireMfaEnrollment, undefined, "outside the group nothing is required");
    await sql(`delete from user_group where id = 'security'`);
    await setProfile({ require2fa: true });
  });

  it("does not ask users of an identity provider", async () => {
    await sql(`update principal set source = 'OIDC' where login_id = 'erin'`);
    const reply = await login("erin");
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.requireMfaEnrollment, undefined);
    assert.equal((await rest("GET", "/v1/users/erin", { token: reply.body.accessToken })).status, 200);
  });

  it("lets an administrator reset a user's factor, ending the user's sessions", async () => {
    const session = await login("frank");
    const { secret } = await enrol(rest, session.body.accessToken!, "frank");
    const before = await rest<Login>("POST", "/v1/auth/login", { body: { loginId: "frank", password: STRONG_PASSWORD } });
    const pendingStep = before.body.mfaTempToken!;
    const byMember = await rest<Login>("POST", "/v1/users/frank:resetMfa", { token: session.body.accessToken, body: {} });
    assert.deepEqual([byMember.status, byMember.body.message], [403, "permission bb.users.update required on workspaces/-"]);

    const reset = await rest<MfaUser>("POST", "/v1/users/frank:resetMfa", { token: admin, body: {} });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(reset.body.mfaEnabled, undefined);
    assert.equal((await rest("GET", "/v1/users/me", { token: session.body.accessToken })).status, 401, "the sessions ended");
    const late = await rest<Login>("POST", "/v1/auth/login", { body: { mfaTempToken: pendingStep, otpCode: await totpCode(secret, 1) } });
    assert.equal(late.status, 401, "a sign-in waiting for its code ends too");
    assert.deepEqual(await sql(`select 1 from mfa_recovery_code c join principal p on p.id = c.principal_id where p.login_id = 'frank'`), []);
    const again = await login("frank");
    assert.equal(again.body.requireMfaEnrollment, true, "require_2fa asks for a new enrolment");

    const transport = createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" });
    const users = createClient(UserService, transport);
    const overConnect = await users.resetMfa({ name: "users/frank" }, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(overConnect.mfaEnabled, false);
    const records = await sql<{ actor: string; resource: string; detail: Record<string, unknown>; request: string; response: string }>(
      `select actor, resource, detail, request, response from audit_log where action = 'bb.auth.mfa.reset' and status_code = 'ok' order by id`,
    );
    assert.deepEqual(records.map((r) => [r.actor, r.resource, r.detail]), [
      ["users/admin", "users/frank", { wasEnabled: true }],
      ["users/admin", "users/frank", { wasEnabled: false }],
    ]);
    assert.deepEqual(await sql(`select id from audit_log where request || response like '%${secret}%'`), []);
  });

  it("resets a lost administrator's factor with the server command", { timeout: 60_000 }, async () => {
    await setProfile({ require2fa: false });
    const { secret } = await enrol(rest, admin, "admin");
    assert.ok((await rest<Login>("POST", "/v1/auth/login", { body: { loginId: "admin", password: STRONG_PASSWORD } })).body.mfaTempToken);
    const { exit, server } = await runUntilExit({ entry: "admin.ts", args: ["reset-mfa", "admin"], env: { PG_URL: app.database.url } });
    assert.deepEqual(exit, { code: 0, signal: null }, server.output());
    assert.match(server.output(), /the second factor of "admin" is reset/);
    assert.equal((await rest("GET", "/v1/users/me", { token: admin })).status, 401);
    admin = await signIn(rest, "admin");
    const [record] = await sql<{ actor: string; detail: Record<string, unknown> }>(
      `select actor, detail from audit_log where action = 'bb.auth.mfa.reset' and actor = 'system'`,
    );
    assert.deepEqual(record, { actor: "system", detail: { via: "server command", wasEnabled: true } });
    assert.deepEqual(await sql(`select id from audit_log where request || response || detail::text like '%${secret}%'`), []);
    const usage = await runUntilExit({ entry: "admin.ts", args: ["reset-mfa"], env: { PG_URL: app.database.url } });
    assert.equal(usage.exit.code, 2);
    assert.match(usage.server.output(), /reset-password\|reset-mfa\|unlock/);
  });
});
