// Forgotten password by e-mail (contract §5.3): RequestPasswordReset mails a
// link with a single-use token valid 30 minutes to the local user with the
// address, through a real SMTP server on loopback; ResetPassword sets a
// password that meets the policy, revokes the user's sessions and records
// bb.auth.password.reset without secrets; of concurrent uses of one link only
// one passes, and any other password change spends the user's links. Unknown
// addresses get the same answer and no mail; both calls count toward the
// per-IP sign-in limit.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AuthService } from "../shared/gen/svc/v1/auth_service_pb.js";
import { insertUser } from "../shared/identity/user/user.store.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { eventually, setProfileField, startMailingApp } from "./helpers/email.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn } from "./helpers/sessions.ts";
import type { SmtpPeer } from "./helpers/smtp.ts";
import { STRONG_PASSWORD } from "./helpers/users.ts";

type Reply = { code?: string; message?: string };
type AuditRow = { actor: string; resource: string; status_code: string; request: string; response: string; detail: Record<string, unknown> };

const NEW_PASSWORD = "Another-Strong-Pass-7";
const INVALID_LINK = [401, "unauthenticated", "the password-reset token is invalid, used or expired; request a new link"];

let ipCounter = 0;
/** A fresh client address per test (through the trusted loopback proxy), so the per-IP limit is never shared. */
const nextIp = () => `192.0.2.${++ipCounter}`;

/** The token of a reset mail. */
function mailedToken(raw: string): string {
  const match = /token[= ](spr_[A-Za-z0-9_-]{43})\b/.exec(raw);
  assert.ok(match, `no token in the mail:\n${raw}`);
  return match[1]!;
}

describe("forgotten password by e-mail", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let smtp: SmtpPeer;
  let admin: string;
  const sql = async <T = Record<string, unknown>>(text: string) => (await adminQuery(text, app.database.url)).rows as T[];
  const headers = (ip: string) => ({ "x-forwarded-for": ip });
  const requestReset = (email: string, ip: string) => rest<Reply>("POST", "/v1/auth:requestPasswordReset", { body: { email }, headers: headers(ip) });
  const reset = (token: string, newPassword: string, ip: string) =>
    rest<Reply>("POST", "/v1/auth:resetPassword", { body: { token, newPassword }, headers: headers(ip) });
  const refusal = (reply: { status: number; body: Reply }) => [reply.status, reply.body.code, reply.body.message];
  /** Asks for a link for `email` and answers the mail. */
  const mailLink = async (email: string, ip: string) => {
    const sent = await requestReset(email, ip);
    assert.deepEqual([sent.status, sent.body], [200, {}]);
    const mail = await smtp.next();
    assert.deepEqual(mail.to, [email]);
    return mail;
  };
  const resetRecords = (loginId: string) =>
    sql<AuditRow>(`select actor, resource, status_code, request, response, detail from audit_log
                   where action = 'bb.auth.password.reset' and actor = 'users/${loginId}' order by id`);

  before(async () => {
    ({ app, rest, smtp, admin } = await startMailingApp(["rita", "sam", "tom", "uma", "vera", "walt", "xena", "yuri"]));
  });
  after(async () => {
    await smtp.close();
    await app.close();
  });

  it("mails a single-use link that sets the password and revokes the sessions", async () => {
    const ip = nextIp();
    const session = await signIn(rest, "rita");
    const mail = await mailLink("rita@example.com", ip);
    assert.match(mail.raw, /Subject: Workspace: reset your password/);
    assert.match(mail.raw, /reset the password of rita/);
    assert.match(mail.raw, /Open \/auth\/password-reset\?token=spr_/, "without an external URL the mail carries the path and the token");
    const token = mailedToken(mail.raw);
    const [stored] = await sql<{ hash: string; minutes: number }>(
      `select encode(token_hash, 'hex') as hash, round(extract(epoch from expire_time - now()) / 60) as minutes from password_reset_token`,
    );
    assert.equal(stored?.hash, createHash("sha256").update(token).digest("hex"));
    assert.equal(Number(stored?.minutes), 30);

    const done = await reset(token, NEW_PASSWORD, ip);
    assert.deepEqual([done.status, done.body], [200, {}]);
    assert.equal((await rest("GET", "/v1/users/me", { token: session })).status, 401, "the sessions are revoked");
    assert.equal((await rest("POST", "/v1/auth/login", { body: { loginId: "rita", password: STRONG_PASSWORD } })).status, 401);
    const renewed = await rest<{ requireResetPassword?: boolean }>("POST", "/v1/auth/login", { body: { loginId: "rita", password: NEW_PASSWORD } });
    assert.equal(renewed.status, 200);
    assert.equal(renewed.body.requireResetPassword, undefined, "the user chose it: no change is required");
    assert.deepEqual(refusal(await reset(token, "Yet-Another-Pass-8", ip)), INVALID_LINK, "a link works once");

    const [record] = await resetRecords("rita");
    assert.deepEqual([record?.actor, record?.resource, record?.status_code, record?.detail], ["users/rita", "users/rita", "ok", { via: "e-mail link" }]);
    assert.deepEqual(JSON.parse(record!.request), { token: "***", newPassword: "***" });
    const leaks = await sql(`select id from audit_log where request || response || detail::text similar to '%(${token}|${NEW_PASSWORD})%'`);
    assert.deepEqual(leaks, [], "neither the token nor the password is recorded");
  });

  it("refuses a weak password with every unmet rule, and keeps the link", async () => {
    const ip = nextIp();
    const token = mailedToken((await mailLink("sam@example.com", ip)).raw);
    const weak = await reset(token, "abc", ip);
    assert.deepEqual(
      refusal(weak),
      [400, "invalid_argument", "new_password does not meet the password policy; it needs at least 12 characters, a number, an upper-case letter, a special character"],
    );
    const [refused] = await resetRecords("sam");
    assert.deepEqual([refused?.status_code, JSON.parse(refused!.request).newPassword], ["invalid_argument", "***"]);
    assert.equal((await reset(token, NEW_PASSWORD, ip)).status, 200, "a refused password does not spend the link");
  });

  it("refuses an expired link, and a link replaced by a newer one", async () => {
    const ip = nextIp();
    const first = mailedToken((await mailLink("tom@example.com", ip)).raw);
    const second = mailedToken((await mailLink("tom@example.com", ip)).raw);
    assert.deepEqual(refusal(await reset(first, NEW_PASSWORD, ip)), INVALID_LINK);
    await sql(`update password_reset_token set expire_time = now() - interval '1 second'`);
    assert.deepEqual(refusal(await reset(second, NEW_PASSWORD, ip)), INVALID_LINK);
    assert.deepEqual(refusal(await reset("spr_forged", NEW_PASSWORD, ip)), INVALID_LINK);
    const missing = await reset("", NEW_PASSWORD, ip);
    assert.deepEqual([missing.status, missing.body.code], [400, "invalid_argument"]);
    const refusals = await sql(`select actor, status_code from audit_log where action = 'bb.auth.password.reset' and status_code = 'unauthenticated'`);
    assert.ok(refusals.length >= 3 && refusals.every((r) => r.actor === "anonymous"), JSON.stringify(refusals));
  });

  it("answers addresses of nobody, of SSO users and of service accounts exactly alike, and sends nothing", async () => {
    const ip = nextIp();
    await insertUser(app.db, { loginId: "sso-user", email: "sso@example.com", title: "", type: "END_USER", source: "OIDC", passwordHash: null, requireResetPassword: false });
    await insertUser(app.db, { loginId: "robot", email: "robot@example.com", title: "", type: "SERVICE_ACCOUNT", source: "LOCAL", passwordHash: null, requireResetPassword: false });
    const before = smtp.received.length;
    for (const email of ["nobody@example.com", "sso@example.com", "robot@example.com"]) {
      const reply = await requestReset(email, ip);
      assert.deepEqual([reply.status, reply.body, reply.headers.get("content-type")], [200, {}, "application/json; charset=utf-8"]);
    }
    assert.deepEqual(await sql(`select 1 from password_reset_token t join principal p on p.id = t.principal_id where p.login_id in ('sso-user', 'robot')`), []);
    await mailLink("tom@example.com", ip);
    assert.equal(smtp.received.length, before + 1, "the only mail since is the local user's");
    const bad = await requestReset("not-an-address", ip);
    assert.deepEqual([bad.status, bad.body.code], [400, "invalid_argument"]);
  });

  it("lets exactly one of several concurrent uses of one link through", async () => {
    const token = mailedToken((await mailLink("xena@example.com", nextIp())).raw);
    const replies = await Promise.all(Array.from({ length: 5 }, (_, i) => reset(token, `${NEW_PASSWORD}-${i}`, nextIp())));
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 401, 401, 401, 401]);
    const winner = replies.findIndex((r) => r.status === 200);
    const signedIn = await rest("POST", "/v1/auth/login", { body: { loginId: "xena", password: `${NEW_PASSWORD}-${winner}` } });
    assert.equal(signedIn.status, 200, "the password is the winner's");
    assert.equal((await resetRecords("xena")).filter((r) => r.status_code === "ok").length, 1);
  });

  it("spends the user's links when the password is changed another way", async () => {
    const ip = nextIp();
    const token = mailedToken((await mailLink("yuri@example.com", ip)).raw);
    const session = await signIn(rest, "yuri");
    const changed = await rest("PATCH", "/v1/users/yuri", {
      token: session,
      body: { user: { password: NEW_PASSWORD }, updateMask: "password", currentPassword: STRONG_PASSWORD },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(refusal(await reset(token, "Yet-Another-Pass-8", ip)), INVALID_LINK);
  });

  it("links to the external URL when the workspace has one", async () => {
    const ip = nextIp();
    await setProfileField(rest, admin, "externalUrl", "https://svc.example.com/");
    const mail = await eventually(() => mailLink("uma@example.com", ip), (m) => m.raw.includes("https://"), "external_url in the link");
    assert.match(mail.raw, /https:\/\/svc\.example\.com\/auth\/password-reset\?token=spr_[A-Za-z0-9_-]{43}/);
    assert.equal((await reset(mailedToken(mail.raw), NEW_PASSWORD, ip)).status, 200);
  });

  it("works over Connect", async () => {
    const ip = nextIp();
    const client = createClient(AuthService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    await client.requestPasswordReset({ email: "vera@example.com" }, { headers: headers(ip) });
    const token = mailedToken((await smtp.next()).raw);
    await client.resetPassword({ token, newPassword: NEW_PASSWORD }, { headers: headers(ip) });
    await assert.rejects(client.resetPassword({ token, newPassword: NEW_PASSWORD }, { headers: headers(ip) }), (error: ConnectError) => {
      assert.equal(error.code, Code.Unauthenticated);
      return true;
    });
    assert.equal((await rest("POST", "/v1/auth/login", { body: { loginId: "vera", password: NEW_PASSWORD } })).status, 200);
  });

  it("counts both calls toward the per-IP sign-in limit", async () => {
    const ip = nextIp();
    const token = mailedToken((await mailLink("walt@example.com", ip)).raw);
    await sql(`insert into rate_limit_hit (bucket, key) select 'login', '${ip}' from generate_series(1, 59)`);
    for (const limited of [await requestReset("walt@example.com", ip), await reset(token, NEW_PASSWORD, ip)]) {
      assert.deepEqual([limited.status, limited.body.code], [429, "resource_exhausted"]);
      assert.ok(limited.headers.get("retry-after"));
    }
    assert.equal((await reset(token, NEW_PASSWORD, nextIp())).status, 200, "the refused call did not spend the link");
  });
});

describe("forgotten password without e-mail configured", () => {
  it("refuses with failed_precondition, whatever the address", async () => {
    const app = await startTestApp();
    try {
      const reply = await restClient(app.baseUrl)<Reply>("POST", "/v1/auth:requestPasswordReset", { body: { email: "someone@example.com" } });
      assert.deepEqual([reply.status, reply.body.code], [400, "failed_precondition"]);
      assert.match(reply.body.message!, /settings\/EMAIL/);
    } finally {
      await app.close();
    }
  });
});
