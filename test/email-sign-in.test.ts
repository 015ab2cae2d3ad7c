// Sign-in with an e-mail code (contract §4.1, §4.2, §4.4, §4.5): SendEmailCode
// mails a 6-digit code through the EMAIL setting's SMTP server (a real one on
// loopback), after the reply; Login with the login id (or address) and the
// code signs in once, even when it is presented twice at the same time.
// Codes live 10 minutes, die after 5 wrong tries, are replaced by a newer
// one and are stored only hashed; wrong codes count toward the lockout; an
// unknown address, or one of a user of an identity provider, gets the same
// answer and no mail; users with a second factor still get the second step.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createServer, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AuthService } from "../shared/gen/svc/v1/auth_service_pb.js";
import { insertUser } from "../shared/identity/user/user.store.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { eventually, mailedCode, setProfileField, startMailingApp } from "./helpers/email.ts";
import { enrol, totpCode } from "./helpers/mfa.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import type { SmtpPeer } from "./helpers/smtp.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Reply = { accessToken?: string; mfaTempToken?: string; user?: { name: string }; code?: string; message?: string };
type AuditRow = { action: string; severity: string; status_code: string; request: string; detail: Record<string, unknown> };

const WRONG_CODE = [401, "unauthenticated", "invalid login id or e-mail code"];

let ipCounter = 0;
/** A fresh client address per test (through the trusted loopback proxy), so the per-IP limit is never shared. */
const nextIp = () => `198.51.100.${++ipCounter}`;

/** Another 6-digit code than `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("sign-in with an e-mail code", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let smtp: SmtpPeer;
  let smtpOpen = true;
  let admin: string;
  const sql = async <T = Record<string, unknown>>(text: string) => (await adminQuery(text, app.database.url)).rows as T[];
  const headers = (ip: string) => ({ "x-forwarded-for": ip });
  const sendCode = (email: string, ip: string) => rest<Reply>("POST", "/v1/auth:sendEmailCode", { body: { email }, headers: headers(ip) });
  const login = (body: object, ip: string) => rest<Reply>("POST", "/v1/auth/login", { body, headers: headers(ip) });
  const refusal = (reply: { status: number; body: Reply }) => [reply.status, reply.body.code, reply.body.message];
  /** Asks for a code for `email` and answers the one mailed. */
  const mailCode = async (email: string, ip: string) => {
    const sent = await sendCode(email, ip);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const mail = await smtp.next();
    assert.deepEqual(mail.to, [email]);
    return mailedCode(mail.raw);
  };
  const failureCount = async (loginId: string) =>
    (await sql<{ failure_count: number }>(`select failure_count from login_failure where login_id = '${loginId}'`))[0]?.failure_count ?? 0;
  const audit = (loginId: string) =>
    sql<AuditRow>(`select action, severity, status_code, request, detail from audit_log
                   where actor = 'users/${loginId}' and method like '%Login' order by id`);
  const enableCodes = async (on: boolean) => {
    await setProfileField(rest, admin, "allowEmailCodeSignin", on);
    const ip = nextIp();
    await eventually(() => sendCode("nobody@example.com", ip), (r) => (r.status === 200) === on, `allow_email_code_signin = ${on}`);
  };

  before(async () => {
    ({ app, rest, smtp, admin } = await startMailingApp(["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank", "ivan", "jane", "kim"]));
    await enableCodes(true);
  });
  after(async () => {
    if (smtpOpen) await smtp.close();
    await app.close();
  });

  it("mails a code that signs in once, and stores only its hash", async () => {
    const ip = nextIp();
    const sent = await sendCode("Alice@Example.com", ip);
    assert.deepEqual([sent.status, sent.body], [200, {}]);
    const mail = await smtp.next();
    assert.deepEqual([mail.from, mail.to], ["svc@example.com", ["alice@example.com"]]);
    assert.match(mail.raw, /Subject: Workspace: your sign-in code/);
    assert.match(mail.raw, /login id alice/);
    const code = mailedCode(mail.raw);
    const [stored] = await sql<{ hash: string; principal_id: string; minutes: number }>(
      `select encode(code_hash, 'hex') as hash, principal_id, round(extract(epoch from expire_time - now()) / 60) as minutes
       from email_signin_code c join principal p on p.id = c.principal_id where p.login_id = 'alice'`,
    );
    assert.equal(stored?.hash, createHash("sha256").update(`${stored!.principal_id}:${code}`).digest("hex"), "hashed with the principal id");
    assert.equal(Number(stored?.minutes), 10);

    const signedIn = await login({ loginId: "alice", emailCode: code }, ip);
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.equal(signedIn.body.user?.name, "users/alice");
    assert.equal((await rest("GET", "/v1/users/me", { token: signedIn.body.accessToken })).status, 200);
    assert.deepEqual(refusal(await login({ loginId: "alice", emailCode: code }, ip)), WRONG_CODE, "a code works once");
    assert.deepEqual(await sql(`select 1 from email_signin_code c join principal p on p.id = c.principal_id where p.login_id = 'alice'`), []);

    const records = (await audit("alice")).slice(-2);
    assert.deepEqual(records.map((r) => [r.action, r.status_code]), [["bb.auth.login", "ok"], ["bb.auth.login.fail", "unauthenticated"]]);
    assert.deepEqual(records[0]!.detail, { method: "email code" });
    assert.equal(JSON.parse(records[0]!.request).emailCode, "***");
    assert.deepEqual(await sql(`select id from audit_log where request || response || detail::text like '%${code}%'`), [], "the code is never recorded");
  });

  it("signs in over Connect with the e-mail address as login id", async () => {
    const ip = nextIp();
    const client = createClient(AuthService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    await client.sendEmailCode({ email: "bob@example.com" }, { headers: headers(ip) });
    const code = mailedCode((await smtp.next()).raw);
    const reply = await client.login({ loginId: "bob@example.com", emailCode: code }, { headers: headers(ip) });
    assert.equal(reply.user?.name, "users/bob");
    assert.match(reply.accessToken, /^sat_/);
    await assert.rejects(client.login({ loginId: "bob", emailCode: code }, { headers: headers(ip) }), (error: ConnectError) => {
      assert.equal(error.code, Code.Unauthenticated);
      return true;
    });
  });

  it("replaces the earlier code with a new one", async () => {
    const ip = nextIp();
    const first = await mailCode("carol@example.com", ip);
    const second = await mailCode("carol@example.com", ip);
    if (first !== second) assert.deepEqual(refusal(await login({ loginId: "carol", emailCode: first }, ip)), WRONG_CODE);
    assert.equal((await login({ loginId: "carol", emailCode: second }, ip)).status, 200);
  });

  it("voids the code after 5 wrong tries, each counted toward the lockout", async () => {
    const ip = nextIp();
    const code = await mailCode("dave@example.com", ip);
    for (let i = 0; i < 5; i++) assert.deepEqual(refusal(await login({ loginId: "dave", emailCode: otherCode(code) }, ip)), WRONG_CODE);
    assert.deepEqual(refusal(await login({ loginId: "dave", emailCode: code }, ip)), WRONG_CODE, "the 6th try finds no code");
    assert.equal(await failureCount("dave"), 6);
    const failures = (await audit("dave")).filter((r) => r.action === "bb.auth.login.fail");
    assert.deepEqual(failures.map((r) => r.severity), ["INFO", "INFO", "INFO", "WARNING", "WARNING", "WARNING"]);
    assert.deepEqual(failures[4]!.detail, { method: "email code", codeFailures: 5, failureCount: 5, reason: "wrong login id or e-mail code" });
    assert.deepEqual(failures[5]!.detail, { method: "email code", failureCount: 6, reason: "wrong login id or e-mail code" });

    assert.equal((await login({ loginId: "dave", emailCode: await mailCode("dave@example.com", ip) }, ip)).status, 200);
    assert.equal(await failureCount("dave"), 0, "a successful sign-in resets the count");
  });

  it("refuses an expired code", async () => {
    const ip = nextIp();
    const code = await mailCode("erin@example.com", ip);
    await sql(`update email_signin_code set expire_time = now() - interval '1 second'`);
    assert.deepEqual(refusal(await login({ loginId: "erin", emailCode: code }, ip)), WRONG_CODE);
  });

  it("answers an unknown address exactly as a known one and sends nothing", async () => {
    const ip = nextIp();
    const before = smtp.received.length;
    const unknown = await sendCode("nobody@example.com", ip);
    assert.deepEqual([unknown.status, unknown.body, unknown.headers.get("content-type")], [200, {}, "application/json; charset=utf-8"]);
    assert.equal(smtp.received.length, before, "no mail for an unknown address");
    const known = await sendCode("frank@example.com", ip);
    assert.deepEqual([known.status, known.body, known.headers.get("content-type")], [200, {}, "application/json; charset=utf-8"]);
    assert.deepEqual((await smtp.next()).to, ["frank@example.com"]);

    assert.deepEqual(refusal(await login({ loginId: "nobody@example.com", emailCode: "123456" }, ip)), WRONG_CODE);
    assert.equal(await failureCount("nobody@example.com"), 1, "unknown ids are counted like known ones");
    for (const email of ["", "not-an-address"]) {
      const bad = await sendCode(email, ip);
      assert.deepEqual([bad.status, bad.body.code], [400, "invalid_argument"]);
      assert.match(bad.body.message!, /^email: /);
    }
    const both = await login({ loginId: "frank", password: "x", emailCode: "123456" }, ip);
    assert.deepEqual(refusal(both), [400, "invalid_argument", "send either password or email_code, not both"]);
  });

  it("gives a user with a second factor the second step", async () => {
    const ip = nextIp();
    const { secret } = await enrol(rest, await signIn(rest, "gina"), "gina");
    const first = await login({ loginId: "gina", emailCode: await mailCode("gina@example.com", ip) }, ip);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(Object.keys(first.body), ["mfaTempToken"]);
    const second = await login({ mfaTempToken: first.body.mfaTempToken, otpCode: await totpCode(secret, 1) }, ip);
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.user?.name, "users/gina");
    const records = (await audit("gina")).slice(-2);
    assert.deepEqual(records.map((r) => r.detail), [{ method: "email code", secondFactor: "required" }, { secondFactor: "totp" }]);
  });

  it("counts toward the per-IP sign-in limit", async () => {
    const ip = nextIp();
    await sql(`insert into rate_limit_hit (bucket, key) select 'login', '${ip}' from generate_series(1, 60)`);
    const send = await sendCode("hank@example.com", ip);
    assert.deepEqual([send.status, send.body.code], [429, "resource_exhausted"]);
    assert.ok(send.headers.get("retry-after"));
    const signIn = await login({ loginId: "hank", emailCode: "123456" }, ip);
    assert.deepEqual([signIn.status, signIn.body.code], [429, "resource_exhausted"]);
  });

  it("refuses codes while allow_email_code_signin is off, without counting", async () => {
    const ip = nextIp();
    const code = await mailCode("ivan@example.com", ip);
    await enableCodes(false);
    const before = smtp.received.length;
    const send = await sendCode("ivan@example.com", ip);
    assert.deepEqual([send.status, send.body.code], [400, "failed_precondition"]);
    assert.match(send.body.message!, /allow_email_code_signin/);
    assert.equal(smtp.received.length, before);
    const refused = await login({ loginId: "ivan", emailCode: code }, ip);
    assert.deepEqual([refused.status, refused.body.code], [400, "failed_precondition"]);
    assert.equal(await failureCount("ivan"), 0);
    assert.deepEqual((await audit("ivan")).at(-1)?.detail, { method: "email code", reason: "e-mail code sign-in is disabled" });
    await enableCodes(true);
    assert.equal((await login({ loginId: "ivan", emailCode: code }, ip)).status, 200, "the code outlived the pause");
  });

  it("lets exactly one of several concurrent sign-ins with one code through", async () => {
    const code = await mailCode("jane@example.com", nextIp());
    const replies = await Promise.all(Array.from({ length: 5 }, () => login({ loginId: "jane", emailCode: code }, nextIp())));
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 401, 401, 401, 401]);
    const sessions = await sql(`select 1 from session_token s join principal p on p.id = s.principal_id where p.login_id = 'jane' and s.kind = 'ACCESS'`);
    assert.equal(sessions.length, 1);
  });

  it("sends no code to a user of an identity provider, who signs in there", async () => {
    const ip = nextIp();
    await insertUser(app.db, { loginId: "sso-kim", email: "kim.sso@example.com", title: "", type: "END_USER", source: "OIDC", passwordHash: null, requireResetPassword: false });
    const sent = await sendCode("kim.sso@example.com", ip);
    assert.deepEqual([sent.status, sent.body], [200, {}]);
    assert.deepEqual(await sql(`select 1 from email_signin_code c join principal p on p.id = c.principal_id where p.login_id = 'sso-kim'`), []);
    assert.equal((await sendCode("kim@example.com", ip)).status, 200);
    assert.deepEqual((await smtp.next()).to, ["kim@example.com"], "the next mail is the local user's: none went to the provider's user");
    assert.deepEqual(refusal(await login({ loginId: "sso-kim", emailCode: "123456" }, ip)), WRONG_CODE);
  });

  it("answers OK when the SMTP server is down (the failure is only logged)", async () => {
    await smtp.close();
    smtpOpen = false;
    const sent = await sendCode("alice@example.com", nextIp());
    assert.deepEqual([sent.status, sent.body], [200, {}]);
    assert.equal((await sql(`select 1 from email_signin_code c join principal p on p.id = c.principal_id where p.login_id = 'alice'`)).length, 1);
  });
});

describe("account mail after the reply", () => {
  it("answers SendEmailCode and RequestPasswordReset without waiting for an SMTP server that never answers", async () => {
    // Accepts connections and never greets: a delivery waits for its 10-second timeout.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const app = await startTestApp({ bootstrap: ADMIN });
    try {
      const rest = restClient(app.baseUrl);
      const admin = await signInFirstAdmin(rest);
      const port = (silent.address() as { port: number }).port;
      const smtp = { host: "127.0.0.1", port, encryption: "NONE", authentication: "NONE" };
      const configured = await rest("PATCH", "/v1/settings/EMAIL?updateMask=email", { token: admin, body: { value: { email: { from: "svc@example.com", smtp } } } });
      assert.equal(configured.status, 200, JSON.stringify(configured.body));
      await setProfileField(rest, admin, "allowEmailCodeSignin", true);
      await makeUser(app.db, "lena");
      const timed = async (path: string) => {
        const started = performance.now();
        const reply = await rest("POST", path, { body: { email: "lena@example.com" } });
        return { status: reply.status, ms: performance.now() - started };
      };
      const code = await eventually(() => timed("/v1/auth:sendEmailCode"), (r) => r.status === 200, "allow_email_code_signin = true");
      const reset = await timed("/v1/auth:requestPasswordReset");
      assert.equal(reset.status, 200);
      for (const { ms } of [code, reset]) assert.ok(ms < 3_000, `answered after ${Math.round(ms)} ms`);
      const stored = await adminQuery(
        `select (select count(*)::int from email_signin_code) as codes, (select count(*)::int from password_reset_token) as links`,
        app.database.url,
      );
      assert.deepEqual(stored.rows[0], { codes: 1, links: 1 }, "stored during the call");
      await eventually(async () => sockets.size, (n) => n > 0, "the deliveries connecting after the replies");
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
      await app.close();
    }
  });
});
