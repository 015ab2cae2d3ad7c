// Sign-in with a second factor (contract §4.2, §4.4, §4.5, §18.1): the
// password step answers only a temp token; the second step with a TOTP code or
// a recovery code issues the session. The temp token is single-use, lives 5
// minutes and dies after 5 wrong codes; a used code never works again, even
// when two calls present it at once; wrong codes count toward the lockout.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { enrol, forgetUsedSteps, totpCode, wrongCode } from "./helpers/mfa.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn } from "./helpers/sessions.ts";
import { makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

type Reply = {
  accessToken?: string;
  refreshToken?: string;
  mfaTempToken?: string;
  user?: { name: string };
  code?: string;
  message?: string;
};
type AuditRow = { action: string; severity: string; status_code: string; request: string; response: string; detail: Record<string, unknown> };

const INVALID_CODE = [401, "unauthenticated", "invalid verification code"];
const INVALID_TOKEN = [401, "unauthenticated", "the mfa_temp_token is invalid, used or expired; sign in with the password again"];

let ipCounter = 0;
/** A fresh client address per test (through the trusted loopback proxy), so the per-IP limit is never shared. */
const nextIp = () => `203.0.113.${++ipCounter}`;

describe("sign-in with a second factor", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const secrets: Record<string, { secret: string; recoveryCodes: string[] }> = {};
  const sql = async <T = Record<string, unknown>>(text: string) => (await adminQuery(text, app.database.url)).rows as T[];
  const login = (body: object, ip: string) => rest<Reply>("POST", "/v1/auth/login", { body, headers: { "x-forwarded-for": ip } });
  const passwordStep = async (loginId: string, ip: string) => {
    const reply = await login({ loginId, password: STRONG_PASSWORD }, ip);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.mfaTempToken!;
  };
  const refusal = (reply: { status: number; body: Reply }) => [reply.status, reply.body.code, reply.body.message];
  const failureCount = async (loginId: string) =>
    (await sql<{ failure_count: number }>(`select failure_count from login_failure where login_id = '${loginId}'`))[0]?.failure_count ?? 0;
  const audit = (loginId: string) =>
    sql<AuditRow>(`select action, severity, status_code, request, response, detail from audit_log
                   where actor = 'users/${loginId}' and method like '%Login' order by id`);

  before(async () => {
    app = await startTestApp();
    rest = restClient(app.baseUrl);
    for (const id of ["alice", "bob", "carol", "dave", "erin", "gina", "hank"]) {
      await makeUser(app.db, id);
      secrets[id] = await enrol(rest, await signIn(rest, id), id);
    }
  });
  after(() => app.close());

  it("answers only a temp token for the password, then a session for the code", async () => {
    const ip = nextIp();
    const first = await login({ loginId: "alice", password: STRONG_PASSWORD, web: true }, ip);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(Object.keys(first.body), ["mfaTempToken"]);
    assert.match(first.body.mfaTempToken!, /^smt_[A-Za-z0-9_-]{43}$/);
    assert.equal(first.headers.get("set-cookie"), null, "no session yet");
    const sessions = await sql(`select 1 from session_token t join principal p on p.id = t.principal_id where p.login_id = 'alice'`);

    const second = await login({ loginId: "somebody-else", mfaTempToken: first.body.mfaTempToken, otpCode: await totpCode(secrets.alice!.secret, 1), web: true }, ip);
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.user?.name, "users/alice", "the temp token names the user; loginId is ignored");
    assert.match(second.body.accessToken!, /^sat_/);
    assert.match(second.headers.get("set-cookie") ?? "", /access-token=sat_/);
    assert.equal((await rest("GET", "/v1/users/me", { token: second.body.accessToken })).status, 200);
    const after = await sql(`select 1 from session_token t join principal p on p.id = t.principal_id where p.login_id = 'alice'`);
    assert.equal(after.length, sessions.length + 2);

    const records = (await audit("alice")).slice(-2);
    assert.deepEqual(records.map((r) => [r.action, r.status_code, r.detail]), [
      ["bb.auth.login", "ok", { secondFactor: "required" }],
      ["bb.auth.login", "ok", { secondFactor: "totp" }],
    ]);
    assert.equal(JSON.parse(records[0]!.response).mfaTempToken, "***");
    assert.deepEqual(["mfaTempToken", "otpCode"].map((f) => JSON.parse(records[1]!.request)[f]), ["***", "***"]);
  });

  it("spends the temp token on success and refuses it after 5 minutes", async () => {
    const ip = nextIp();
    const token = await passwordStep("bob", ip);
    assert.equal((await login({ mfaTempToken: token, otpCode: await totpCode(secrets.bob!.secret, 1) }, ip)).status, 200);
    await forgetUsedSteps(app.database.url, "bob");
    assert.deepEqual(refusal(await login({ mfaTempToken: token, otpCode: await totpCode(secrets.bob!.secret) }, ip)), INVALID_TOKEN);

    const late = await passwordStep("bob", ip);
    await sql(`update mfa_temp_token set expire_time = now() - interval '1 second'`);
    assert.deepEqual(refusal(await login({ mfaTempToken: late, otpCode: await totpCode(secrets.bob!.secret) }, ip)), INVALID_TOKEN);
    assert.deepEqual(refusal(await login({ mfaTempToken: "smt_forged", otpCode: "123456" }, ip)), INVALID_TOKEN);
    const missing = await login({ mfaTempToken: late }, ip);
    assert.deepEqual([missing.status, missing.body.code], [400, "invalid_argument"]);
  });

  it("voids the temp token after 5 wrong codes, each counted toward the lockout", async () => {
    const ip = nextIp();
    const token = await passwordStep("carol", ip);
    const wrong = await wrongCode(secrets.carol!.secret);
    for (let i = 0; i < 5; i++) assert.deepEqual(refusal(await login({ mfaTempToken: token, otpCode: wrong }, ip)), INVALID_CODE);
    assert.deepEqual(refusal(await login({ mfaTempToken: token, otpCode: await totpCode(secrets.carol!.secret, 1) }, ip)), INVALID_TOKEN);
    assert.equal(await failureCount("carol"), 5);
    const failures = (await audit("carol")).filter((r) => r.action === "bb.auth.login.fail");
    assert.deepEqual(failures.map((r) => r.severity), ["INFO", "INFO", "INFO", "WARNING", "WARNING"]);
    assert.deepEqual(failures[4]!.detail, { secondFactor: "totp", tempTokenFailures: 5, failureCount: 5, reason: "wrong verification code" });
    const [voided] = await sql<{ detail: Record<string, unknown> }>(`select detail from audit_log where actor = 'anonymous' and action = 'bb.auth.login.fail' order by id desc limit 1`);
    assert.deepEqual(voided?.detail, { reason: "invalid or expired mfa temp token" }, "a dead token names no user");

    const fresh = await passwordStep("carol", ip);
    assert.equal(await failureCount("carol"), 5, "the password alone does not reset the count while a code is due");
    assert.equal((await login({ mfaTempToken: fresh, otpCode: await totpCode(secrets.carol!.secret, 1) }, ip)).status, 200);
    assert.equal(await failureCount("carol"), 0, "the completed sign-in resets it");
  });

  it("refuses a code used before, and lets exactly one of two concurrent uses through", async () => {
    const ip = nextIp();
    const code = await totpCode(secrets.dave!.secret, 1);
    assert.equal((await login({ mfaTempToken: await passwordStep("dave", ip), otpCode: code }, ip)).status, 200);
    assert.deepEqual(refusal(await login({ mfaTempToken: await passwordStep("dave", ip), otpCode: code }, ip)), INVALID_CODE);
    assert.deepEqual(refusal(await login({ mfaTempToken: await passwordStep("dave", ip), otpCode: await totpCode(secrets.dave!.secret) }, ip)), INVALID_CODE, "an earlier step is refused too");

    await forgetUsedSteps(app.database.url, "dave");
    const tokens = [await passwordStep("dave", ip), await passwordStep("dave", ip)];
    const same = await totpCode(secrets.dave!.secret, 1);
    const replies = await Promise.all(tokens.map((token) => login({ mfaTempToken: token, otpCode: same }, nextIp())));
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 401]);
    assert.deepEqual(refusal(replies.find((r) => r.status === 401)!), INVALID_CODE);
  });

  it("accepts each recovery code once", async () => {
    const ip = nextIp();
    const [code] = secrets.erin!.recoveryCodes;
    const used = await login({ mfaTempToken: await passwordStep("erin", ip), recoveryCode: ` ${code!.toUpperCase()} ` }, ip);
    assert.equal(used.status, 200, JSON.stringify(used.body));
    const [row] = await sql<{ used: boolean }>(`select used_time is not null as used from mfa_recovery_code c join principal p on p.id = c.principal_id
                                                 where p.login_id = 'erin' and c.code_hash = sha256('${code}'::bytea)`);
    assert.equal(row?.used, true);
    assert.deepEqual(refusal(await login({ mfaTempToken: await passwordStep("erin", ip), recoveryCode: code }, ip)), INVALID_CODE);
    const records = (await audit("erin")).filter((r) => r.status_code === "ok").at(-2);
    assert.deepEqual(records?.detail, { secondFactor: "recovery code" });
    assert.deepEqual(await sql(`select id from audit_log where request || response like '%${code}%'`), []);
  });

  it("locks the login id at the 11th wrong second factor, as for passwords", async () => {
    const ip = nextIp();
    const wrong = await wrongCode(secrets.gina!.secret);
    let token = "";
    let last: { status: number; body: Reply } | undefined;
    for (let i = 0; i < 11; i++) {
      if (i % 5 === 0) token = await passwordStep("gina", ip); // 5 wrong codes void a token
      last = await login({ mfaTempToken: token, otpCode: wrong }, ip);
    }
    assert.deepEqual([last!.status, last!.body.code], [400, "failed_precondition"]);
    const locks = await sql<{ severity: string }>(`select severity from audit_log where action = 'bb.user.lock' and resource = 'users/gina'`);
    assert.deepEqual(locks, [{ severity: "CRITICAL" }]);
    const locked = await login({ loginId: "gina", password: STRONG_PASSWORD }, ip);
    assert.deepEqual([locked.status, locked.body.code], [400, "failed_precondition"]);
  });

  it("counts the second step toward the per-IP sign-in limit", async () => {
    const ip = nextIp();
    const token = await passwordStep("hank", ip);
    await sql(`insert into rate_limit_hit (bucket, key) select 'login', '${ip}' from generate_series(1, 59)`);
    const limited = await login({ mfaTempToken: token, otpCode: await totpCode(secrets.hank!.secret, 1) }, ip);
    assert.deepEqual([limited.status, limited.body.code], [429, "resource_exhausted"]);
    assert.ok(limited.headers.get("retry-after"));
    const elsewhere = await login({ mfaTempToken: token, otpCode: await totpCode(secrets.hank!.secret, 1) }, nextIp());
    assert.equal(elsewhere.status, 200, "the refused attempt spent neither the token nor the code");
  });
});
