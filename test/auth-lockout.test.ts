// Lockout per login id and the per-IP sign-in limit (contract §4.3–§4.6, §5.1,
// §8.1; specification "States and transitions", "Limits"): severities 1–3
// INFO, 4–10 WARNING, the 11th CRITICAL + bb.user.lock and the end of the
// user's sessions; a locked id refuses even the right password; unknown ids
// behave the same; UpdateUser's current-password check counts and refuses the
// same way; unlock by an admin; 60 sign-in requests per minute per client IP,
// shared across replicas.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { StructSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AuthService } from "../shared/gen/svc/v1/auth_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient, type RestReply } from "./helpers/rest.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

type ErrorBody = { code: string; message: string; details?: { type: string; debug?: Record<string, unknown> }[] };
type AuditRow = { action: string; severity: string; status_code: string; actor_ip: string; resource: string; request: string; detail: Record<string, unknown> };

const WRONG = "Wrong-Secret-Pw-77";
let ipCounter = 0;
/** A fresh client address per test, passed through the trusted loopback proxy, so the per-IP limit never interferes. */
const nextIp = () => `198.51.100.${++ipCounter}`;

/** Signs in over REST; a reply that takes longer than 20 s fails the test instead of hanging it. */
function loginWith(app: TestApp) {
  const rest = restClient(app.baseUrl);
  return (loginId: string, password: string, ip?: string) =>
    rest<ErrorBody & { accessToken: string }>("POST", "/v1/auth/login", {
      body: { loginId, password },
      headers: ip ? { "x-forwarded-for": ip } : {},
      signal: AbortSignal.timeout(20_000),
    });
}

/** Runs task(0..count-1) with at most `width` in flight; replies in index order. */
async function concurrently<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  }));
  return out;
}

const query = async <T>(app: TestApp, statement: string) => (await adminQuery(statement, app.database.url)).rows as T[];
const auditOf = (app: TestApp, actor: string, action = "bb.auth.login.fail") =>
  query<AuditRow>(app, `select action, severity, status_code, actor_ip, resource, request, detail from audit_log
                        where actor = '${actor}' and action = '${action}' order by id`);
const failureRow = async (app: TestApp, loginId: string) =>
  (await query<{ failure_count: number; locked_until: Date | null }>(app, `select failure_count, locked_until from login_failure where login_id = '${loginId}'`))[0];

describe("sign-in lockout", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let login: ReturnType<typeof loginWith>;
  let adminToken: string;
  /** Fails `times` times in a row and returns the replies. */
  const fail = async (loginId: string, times: number, ip: string) => {
    const replies: RestReply<ErrorBody>[] = [];
    for (let i = 0; i < times; i++) replies.push(await login(loginId, WRONG, ip));
    return replies;
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    login = loginWith(app);
    const first = await login(ADMIN.loginId, ADMIN.password);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    adminToken = first.body.accessToken;
    const body = { user: { password: STRONG_PASSWORD }, updateMask: "password", currentPassword: ADMIN.password };
    assert.equal((await rest("PATCH", "/v1/users/admin", { token: adminToken, body })).status, 200);
    for (const id of ["alice", "carol", "dave", "dora", "frank", "gina", "henry", "ivan", "judy", "kate"]) await makeUser(app.db, id);
  });
  after(() => app.close());

  it("raises the severity 1–3 INFO, 4–10 WARNING, 11th CRITICAL with one bb.user.lock, without storing the password", async () => {
    const ip = nextIp();
    const replies = await fail("alice", 11, ip);
    assert.deepEqual(replies.map((r) => r.status), [...Array(10).fill(401), 400]);
    for (const r of replies.slice(0, 10)) assert.deepEqual([r.body.code, r.body.message], ["unauthenticated", "invalid login id or password"]);
    assert.equal(replies[10]!.body.code, "failed_precondition");

    const rows = await auditOf(app, "users/alice");
    assert.deepEqual(rows.map((r) => r.severity), [...Array(3).fill("INFO"), ...Array(7).fill("WARNING"), "CRITICAL"]);
    assert.deepEqual(rows.map((r) => r.detail.failureCount), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    for (const row of rows) {
      assert.equal(row.actor_ip, ip);
      assert.equal(JSON.parse(row.request).password, "***");
      assert.equal(JSON.parse(row.request).loginId, "alice");
    }
    const locks = await auditOf(app, "users/alice", "bb.user.lock");
    assert.equal(locks.length, 1);
    assert.deepEqual([locks[0]!.severity, locks[0]!.resource, locks[0]!.actor_ip], ["CRITICAL", "users/alice", ip]);
    const leaks = await query(app, `select id from audit_log where request || response || status_message || detail::text like '%${WRONG}%'`);
    assert.deepEqual(leaks, [], "the password is never stored in the audit log");
  });

  it("locks exactly once under 30 concurrent wrong passwords and does not count the refusals", async () => {
    // Its own instance: should the pool wedge (as it once did), the other tests are not taken down with it.
    const own = await startTestApp();
    try {
      await makeUser(own.db, "erin");
      const ip = nextIp();
      const replies = await concurrently(30, 30, () => loginWith(own)("erin", WRONG, ip));
      const statuses = replies.map((r) => `${r.status} ${r.body.code}`).sort();
      assert.deepEqual(statuses, [...Array(20).fill("400 failed_precondition"), ...Array(10).fill("401 unauthenticated")]);
      assert.equal((await auditOf(own, "users/erin", "bb.user.lock")).length, 1);
      assert.equal((await failureRow(own, "erin"))?.failure_count, 11);
      const rows = await auditOf(own, "users/erin");
      const counted = rows.filter((r) => r.detail.failureCount !== undefined).map((r) => r.detail.failureCount as number);
      assert.deepEqual(counted.sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      assert.equal(rows.filter((r) => r.detail.reason === "locked").length, 19);
    } finally {
      await own.close();
    }
  });

  it("refuses the right password while locked, with Retry-After, the unlock time and a WARNING record", async () => {
    const ip = nextIp();
    await fail("dave", 11, ip);
    const { locked_until } = (await failureRow(app, "dave"))!;
    const lockedUntil = new Date(locked_until!).toISOString();
    const reply = await login("dave", STRONG_PASSWORD, ip);
    assert.equal(reply.status, 400);
    assert.equal(reply.body.code, "failed_precondition");
    assert.ok(reply.body.message.includes(lockedUntil), reply.body.message);
    const retryAfter = Number(reply.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 900, `Retry-After ${reply.headers.get("retry-after")}`);
    assert.deepEqual(reply.body.details?.[0]?.debug, { lockedUntil });

    const last = (await auditOf(app, "users/dave")).at(-1)!;
    assert.deepEqual([last.severity, last.status_code, last.detail.reason], ["WARNING", "failed_precondition", "locked"]);
    assert.equal((await failureRow(app, "dave"))?.failure_count, 11, "a refusal while locked is not counted");
    const sessions = await query(app, `select s.kind from session_token s join principal p on p.id = s.principal_id where p.login_id = 'dave'`);
    assert.deepEqual(sessions, [], "no session was issued");
  });

  it("refuses the right password of a locked login id over Connect the same way", async () => {
    const ip = nextIp();
    await fail("dora", 11, ip);
    const auth = createClient(AuthService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const error = await auth.login({ loginId: "dora", password: STRONG_PASSWORD }, { headers: { "x-forwarded-for": ip } }).then(
      () => assert.fail("a locked login id signed in"),
      (e: unknown) => ConnectError.from(e),
    );
    assert.equal(error.code, Code.FailedPrecondition);
    assert.match(error.rawMessage, /locked until \d{4}-\d\d-\d\dT/);
    const seconds = Number(error.metadata.get("retry-after"));
    assert.ok(seconds > 0 && seconds <= 900, `Retry-After ${error.metadata.get("retry-after")}`);
    const [detail] = error.findDetails(StructSchema);
    assert.ok(typeof detail?.fields.lockedUntil?.kind.value === "string", "detail carries lockedUntil");
    assert.equal((await failureRow(app, "dora"))?.failure_count, 11);
  });

  it("counts and locks a login id that does not exist exactly like a real one", async () => {
    const ip = nextIp();
    const [ghost, real] = await Promise.all([fail("ghost", 12, ip), fail("frank", 12, ip)]);
    const shape = (replies: RestReply<ErrorBody>[]) => replies.map((r) => `${r.status} ${r.body.code} ${r.body.message.replace(/\d{4}-\S+Z/, "<time>")}`);
    assert.deepEqual(shape(ghost), shape(real));
    assert.deepEqual(ghost.map((r) => r.status), [...Array(10).fill(401), 400, 400]);
    assert.equal((await failureRow(app, "ghost"))?.failure_count, 11);
    const locks = await auditOf(app, "users/ghost", "bb.user.lock");
    assert.deepEqual(locks.map((r) => r.severity), ["CRITICAL"]);
    const rows = await auditOf(app, "users/ghost");
    assert.deepEqual(rows.map((r) => r.detail.failureCount ?? r.detail.reason), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, "locked"]);
  });

  it("resets the count on success, and starts over at 1 once the 15-minute lock has passed", async () => {
    const ip = nextIp();
    await fail("carol", 3, ip);
    assert.equal((await failureRow(app, "carol"))?.failure_count, 3);
    assert.equal((await login("carol", STRONG_PASSWORD, ip)).status, 200);
    assert.equal((await failureRow(app, "carol"))?.failure_count ?? 0, 0);
    await fail("carol", 1, ip);
    assert.equal((await auditOf(app, "users/carol")).at(-1)?.detail.failureCount, 1);

    await fail("carol", 10, ip);
    const lockedUntil = (await failureRow(app, "carol"))!.locked_until!;
    const window = new Date(lockedUntil).getTime() - Date.now();
    assert.ok(window > 14 * 60_000 && window <= 15 * 60_000, `locked for ${window} ms`);
    assert.equal((await login("carol", STRONG_PASSWORD, ip)).status, 400);
    await adminQuery(`update login_failure set locked_until = now() - interval '1 second' where login_id = 'carol'`, app.database.url);
    const again = await login("carol", WRONG, ip);
    assert.equal(again.status, 401, "the lock has ended");
    const last = (await auditOf(app, "users/carol")).at(-1)!;
    assert.deepEqual([last.severity, last.detail.failureCount], ["INFO", 1]);
    assert.equal((await login("carol", STRONG_PASSWORD, ip)).status, 200);
  });

  it("lets an admin lift a lock at once and refuses anyone without bb.users.unlock", async () => {
    const ip = nextIp();
    await fail("henry", 11, ip);
    const shown = await rest<{ locked?: boolean; lockedUntil?: string }>("GET", "/v1/users/henry", { token: adminToken });
    assert.equal(shown.status, 200);
    assert.equal(shown.body.locked, true);
    assert.equal(shown.body.lockedUntil, new Date((await failureRow(app, "henry"))!.locked_until!).toISOString());

    const gina = await login("gina", STRONG_PASSWORD, ip);
    assert.equal(gina.status, 200);
    const refused = await rest<ErrorBody>("POST", "/v1/users:unlock", { token: gina.body.accessToken, body: { loginId: "henry" } });
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /bb\.users\.unlock/);
    const denials = await auditOf(app, "users/gina", "bb.user.unlock");
    assert.deepEqual(denials.map((r) => [r.status_code, JSON.parse(r.request).loginId]), [["permission_denied", "henry"]]);
    assert.equal((await login("henry", STRONG_PASSWORD, ip)).status, 400, "still locked after the refused unlock");

    const unlocked = await rest("POST", "/v1/users:unlock", { token: adminToken, body: { loginId: "henry" } });
    assert.equal(unlocked.status, 200, JSON.stringify(unlocked.body));
    assert.deepEqual(unlocked.body, {});
    const records = await auditOf(app, "users/admin", "bb.user.unlock");
    assert.deepEqual(records.map((r) => `${r.status_code} ${r.resource}`), ["ok users/henry"]);
    const after = await rest<{ locked?: boolean; lockedUntil?: string }>("GET", "/v1/users/henry", { token: adminToken });
    assert.equal(after.body.locked ?? false, false);
    assert.equal(after.body.lockedUntil, undefined);
    assert.equal((await login("henry", STRONG_PASSWORD, ip)).status, 200);
    assert.equal(denials[0]!.resource, "users/henry", "the refused unlock names its target like the allowed one");
  });

  it("ends the sessions of a user whose login id gets locked", async () => {
    const ip = nextIp();
    const signedIn = await login("ivan", STRONG_PASSWORD, ip);
    assert.equal(signedIn.status, 200);
    const token = signedIn.body.accessToken;
    await fail("ivan", 10, ip);
    assert.equal((await rest("GET", "/v1/users/me", { token })).status, 200, "ten failures lock nothing");
    await fail("ivan", 1, ip);
    assert.equal((await rest("GET", "/v1/users/me", { token })).status, 401, "the lock revoked the session");
    const live = await query(app, `select 1 from session_token s join principal p on p.id = s.principal_id where p.login_id = 'ivan' and s.revoked_time is null`);
    assert.deepEqual(live, []);
  });

  it("counts a wrong current password of a self-service change like a failed sign-in, up to the lock", async () => {
    const signedIn = await login("judy", STRONG_PASSWORD, nextIp());
    const token = signedIn.body.accessToken;
    const change = (currentPassword: string, password = "Brand-New-Pass-42") =>
      rest<ErrorBody>("PATCH", "/v1/users/judy", { token, body: { user: { password }, updateMask: "password", currentPassword } });
    const same = await change(STRONG_PASSWORD, STRONG_PASSWORD);
    assert.deepEqual([same.status, same.body.code, same.body.message], [400, "invalid_argument", "user.password must differ from the current password"]);
    assert.equal((await failureRow(app, "judy"))?.failure_count ?? 0, 0, "a right current password is not counted");

    const replies: RestReply<ErrorBody>[] = [];
    for (let i = 0; i < 11; i++) replies.push(await change(WRONG));
    assert.deepEqual(replies.slice(0, 10).map((r) => [r.status, r.body.code, r.body.message]), Array(10).fill([400, "invalid_argument", "current_password is wrong"]));
    assert.deepEqual([replies[10]!.status, replies[10]!.body.code], [400, "failed_precondition"]);
    assert.match(replies[10]!.body.message, /locked until/);
    assert.equal((await failureRow(app, "judy"))?.failure_count, 11);

    const rows = await auditOf(app, "users/judy", "bb.auth.password.change");
    const refused = rows.filter((r) => r.detail.failureCount !== undefined);
    assert.deepEqual(refused.map((r) => r.severity), [...Array(3).fill("INFO"), ...Array(7).fill("WARNING"), "CRITICAL"]);
    assert.deepEqual(refused.map((r) => r.detail.reason), Array(11).fill("wrong current password"));
    const locks = await auditOf(app, "users/judy", "bb.user.lock");
    assert.deepEqual(locks.map((r) => [r.severity, r.resource]), [["CRITICAL", "users/judy"]]);
    assert.equal((await rest("GET", "/v1/users/me", { token })).status, 401, "the lock ended the session that made the tries");
    assert.equal((await login("judy", STRONG_PASSWORD, nextIp())).status, 400);
  });

  it("refuses a right current password while the login id is locked, without counting it", async () => {
    const signedIn = await login("kate", STRONG_PASSWORD, nextIp());
    const token = signedIn.body.accessToken;
    // A lock set elsewhere (another replica, or a race with this session's own revocation).
    await query(app, `insert into login_failure (login_id, failure_count, locked_until) values ('kate', 11, now() + interval '10 minutes')`);
    const body = { user: { password: "Brand-New-Pass-42" }, updateMask: "password", currentPassword: STRONG_PASSWORD };
    const refused = await rest<ErrorBody>("PATCH", "/v1/users/kate", { token, body });
    assert.deepEqual([refused.status, refused.body.code], [400, "failed_precondition"]);
    assert.match(refused.body.message, /locked until/);
    assert.equal((await failureRow(app, "kate"))?.failure_count, 11, "not counted again");
    const [record] = (await auditOf(app, "users/kate", "bb.auth.password.change")).slice(-1);
    assert.deepEqual([record?.severity, record?.status_code, record?.detail.reason], ["WARNING", "failed_precondition", "locked"]);
    await query(app, `delete from login_failure where login_id = 'kate'`);
    assert.equal((await login("kate", STRONG_PASSWORD, nextIp())).status, 200, "the password did not change");
  });
});

describe("sign-in rate limit per client IP", () => {
  /** Sends `count` concurrent wrong sign-ins alternating over `apps`, spread over six login ids (none reaches 11 within 60). */
  const burst = (apps: TestApp[], count: number, ip: (i: number) => string) =>
    concurrently(count, count, (i) => loginWith(apps[i % apps.length]!)(`rl-user-${i % 6}`, WRONG, ip(i)));
  /** allowed = reached the credential check (401, or 400 once an id locks); anything else is counted as other. */
  const tally = (replies: RestReply<ErrorBody>[]) => ({
    allowed: replies.filter((r) => r.status === 401 || r.status === 400).length,
    limited: replies.filter((r) => r.status === 429 && r.body.code === "resource_exhausted").length,
    other: replies.filter((r) => ![400, 401, 429].includes(r.status)).length,
  });

  it("refuses the 61st request within a minute from one address with 429 and Retry-After, and only that address", async () => {
    const app = await startTestApp();
    try {
      const sixty = await burst([app], 60, () => "203.0.113.10");
      assert.deepEqual(tally(sixty), { allowed: 60, limited: 0, other: 0 });
      const login = loginWith(app);
      const sixtyFirst = await login("rl-user-0", WRONG, "203.0.113.10");
      assert.equal(sixtyFirst.status, 429);
      assert.equal(sixtyFirst.body.code, "resource_exhausted");
      const retryAfter = Number(sixtyFirst.headers.get("retry-after"));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${sixtyFirst.headers.get("retry-after")}`);
      assert.equal((await login("rl-other", WRONG, "203.0.113.11")).status, 401, "another address is not limited");
    } finally {
      await app.close();
    }
  });

  it("counts a malformed login id toward the limit and refuses one past it with 429, not 401", async () => {
    const app = await startTestApp();
    try {
      const login = loginWith(app);
      const ip = "203.0.113.12";
      const malformed = await login("-not a login id", WRONG, ip);
      assert.equal(malformed.status, 401, "refused as a wrong credential");
      assert.deepEqual(tally(await burst([app], 59, () => ip)), { allowed: 59, limited: 0, other: 0 });
      const pastLimit = await login("-not a login id", WRONG, ip);
      assert.equal(pastLimit.status, 429, "the malformed request counted: the 61st is refused");
      assert.equal((await login("rl-user-0", WRONG, ip)).status, 429);
    } finally {
      await app.close();
    }
  });

  it("does not let a client that is not a trusted proxy dodge the limit with X-Forwarded-For", async () => {
    const app = await startTestApp({ flags: ["--trusted-proxies", "10.9.9.9/32"] });
    try {
      const replies = await burst([app], 61, (i) => `192.0.2.${i + 1}`);
      assert.deepEqual(tally(replies), { allowed: 60, limited: 1, other: 0 });
      const ips = await query<{ actor_ip: string }>(app, `select distinct actor_ip from audit_log where action = 'bb.auth.login.fail'`);
      assert.deepEqual(ips, [{ actor_ip: "127.0.0.1" }], "the forwarded address is ignored");
    } finally {
      await app.close();
    }
  });

  it("holds the limit across two API instances on one database", async () => {
    const first = await startTestApp();
    const second = await startTestApp({ database: first.database });
    try {
      const replies = await burst([first, second], 80, () => "203.0.113.20");
      assert.deepEqual(tally(replies), { allowed: 60, limited: 20, other: 0 });
      for (const i of [0, 1]) assert.ok(replies.some((r, n) => n % 2 === i && r.status !== 429), `instance ${i + 1} served some`);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
