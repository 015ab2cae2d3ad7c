// Per-principal rate limit (contract §15.6): N requests per minute per
// signed-in user on every RPC but sign-in, in every API form; the 6th call of
// a user limited to 5 answers 429 / resource_exhausted with Retry-After. Also
// the flag, and the in-process sliding window itself. Across replicas:
// rate-limit-shared.test.ts and replicas.test.ts.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { PrincipalRateLimiter } from "../shared/identity/auth/principal-rate-limit.ts";
import { ActuatorService } from "../shared/gen/svc/v1/actuator_service_pb.js";
import { AuthService } from "../shared/gen/svc/v1/auth_service_pb.js";
import { UserService } from "../shared/gen/svc/v1/user_service_pb.js";
import { ConfigError, loadConfig } from "../shared/platform/config.ts";
import { DomainError } from "../shared/platform/errors.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

type ErrorBody = { code: string; message: string };

const LIMIT = 5;
let ipCounter = 0;
/** A fresh client address per sign-in, through the trusted loopback proxy, so the per-IP sign-in limit never interferes. */
const nextIp = () => `198.51.100.${++ipCounter}`;

/** Rejects with the ConnectError of a call that must fail. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => assert.fail("the call was not refused"),
    (e: unknown) => ConnectError.from(e),
  );

/** At most the rest of this minute plus the time for one call's share of the next to leave the window. */
const assertRetryAfter = (value: string | null) => {
  const seconds = Number(value);
  assert.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60 + 60 / LIMIT, `Retry-After ${value}`);
};

describe("per-user rate limit", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let connect: Transport;
  const tokens = new Map<string, string>();

  const signIn = async (loginId: string, token?: string) =>
    rest<ErrorBody & { accessToken: string }>("POST", "/v1/auth/login", {
      body: { loginId, password: STRONG_PASSWORD },
      token,
      headers: { "x-forwarded-for": nextIp() },
    });
  const me = (loginId: string) => rest<ErrorBody & { name: string }>("GET", "/v1/users/me", { token: tokens.get(loginId) });
  const auth = (loginId: string) => ({ headers: { authorization: `Bearer ${tokens.get(loginId)}` } });

  before(async () => {
    app = await startTestApp({ flags: ["--rate-limit-per-user", String(LIMIT)] });
    rest = restClient(app.baseUrl);
    connect = createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" });
    for (const loginId of ["alice", "bob", "carol", "dave", "erin", "gwen"]) {
      await makeUser(app.db, loginId);
      const reply = await signIn(loginId);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      tokens.set(loginId, reply.body.accessToken);
    }
  });
  after(() => app.close());

  it("refuses the 6th call of a user with 429 + Retry-After over REST, resource_exhausted over Connect and gRPC", async () => {
    const users = createClient(UserService, connect);
    for (let i = 0; i < 3; i++) assert.equal((await me("alice")).status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await users.getCurrentUser({}, auth("alice"))).name, "users/alice");

    const sixth = await me("alice");
    assert.equal(sixth.status, 429);
    assert.equal(sixth.body.code, "resource_exhausted");
    assert.equal(sixth.body.message, `too many requests from users/alice: at most ${LIMIT} per minute per user; retry in ${sixth.headers.get("retry-after")} s`);
    assertRetryAfter(sixth.headers.get("retry-after"));

    const overConnect = await refusal(users.getCurrentUser({}, auth("alice")));
    assert.equal(overConnect.code, Code.ResourceExhausted);
    assert.match(overConnect.rawMessage, /^too many requests from users\/alice: at most 5 per minute per user/);
    assertRetryAfter(overConnect.metadata.get("retry-after"));

    const overGrpc = await refusal(createClient(UserService, createGrpcTransport({ baseUrl: app.baseUrl })).getCurrentUser({}, auth("alice")));
    assert.equal(overGrpc.code, Code.ResourceExhausted);
  });

  it("counts each user on its own", async () => {
    for (let i = 0; i < LIMIT; i++) assert.equal((await me("bob")).status, 200, `call ${i + 1} of bob`);
    assert.equal((await me("bob")).status, 429);
    assert.equal((await me("carol")).status, 200, "another user is unaffected");
  });

  it("does not count calls made without a credential toward anyone", async () => {
    const actuator = createClient(ActuatorService, connect);
    for (let i = 0; i < 3 * LIMIT; i++) {
      assert.equal((await rest("GET", "/v1/actuator/info")).status, 200);
      await actuator.getActuatorInfo({});
    }
    for (let i = 0; i < LIMIT - 1; i++) assert.equal((await me("carol")).status, 200, `call ${i + 2} of carol`);
    assert.equal((await me("carol")).status, 429, "carol's own calls still count");
  });

  it("counts a public call made with a credential toward its user", async () => {
    const actuator = createClient(ActuatorService, connect);
    for (let i = 0; i < LIMIT; i++) await actuator.getActuatorInfo({}, auth("erin"));
    assert.equal((await me("erin")).status, 429);
  });

  it("does not limit or count sign-in, which has its own per-IP limit", async () => {
    for (let i = 0; i < LIMIT + 3; i++) {
      const reply = await signIn("dave", tokens.get("dave"));
      assert.equal(reply.status, 200, `sign-in ${i + 1}: ${JSON.stringify(reply.body)}`);
    }
    for (let i = 0; i < LIMIT; i++) assert.equal((await me("dave")).status, 200, `call ${i + 1} of dave after the sign-ins`);
    assert.equal((await me("dave")).status, 429);

    const viaConnect = await createClient(AuthService, connect).login(
      { loginId: "dave", password: STRONG_PASSWORD },
      { headers: { ...auth("dave").headers, "x-forwarded-for": nextIp() } },
    );
    assert.ok(viaConnect.accessToken, "a user over its limit can still sign in");
  });

  it("does not count the e-mail and single sign-on calls under the per-IP sign-in limit; counts the others of AuthService", async () => {
    for (let i = 0; i < LIMIT; i++) assert.equal((await me("gwen")).status, 200);
    const send = (path: string, body: object) => rest<ErrorBody>("POST", path, { token: tokens.get("gwen"), body, headers: { "x-forwarded-for": nextIp() } });
    const answers = [
      await send("/v1/auth:sendEmailCode", { email: "gwen@example.com" }),
      await send("/v1/auth:requestPasswordReset", { email: "gwen@example.com" }),
      await send("/v1/auth:resetPassword", { token: "spr_unknown", newPassword: STRONG_PASSWORD }),
      await send("/v1/auth/saml/acs", { relayState: "unknown", samlResponse: "" }),
    ];
    const callback = await rest<ErrorBody>("GET", "/v1/auth/oidc/callback?code=x&state=unknown", { token: tokens.get("gwen"), headers: { "x-forwarded-for": nextIp() } });
    // Refused for what they are (no e-mail setting, no such link, no external URL), never for the user's request count.
    assert.deepEqual([...answers, callback].map((r) => `${r.status} ${r.body.code}`), [
      "400 failed_precondition", "400 failed_precondition", "401 unauthenticated", "400 failed_precondition", "400 failed_precondition",
    ]);
    const startSso = await rest<ErrorBody>("GET", "/v1/auth/idps/corp:start", { token: tokens.get("gwen") });
    assert.equal(startSso.status, 429, "StartSso is not under the per-IP limit, so the user's limit holds");
  });

  it("writes no audit record and no store row for a refused call", async () => {
    const count = async () =>
      (await adminQuery(
        `select (select count(*)::int from audit_log) as records, (select count(*)::int from rate_limit_hit) as hits,
                (select coalesce(sum(requests), 0)::int from principal_request_count) as reserved,
                (select count(*)::int from session_token where revoked_time is not null) as revoked`,
        app.database.url,
      )).rows[0];
    const before = await count();
    assert.equal((await me("alice")).status, 429);
    assert.equal((await rest("POST", "/v1/auth/logout", { token: tokens.get("alice"), body: {} })).status, 429);
    assert.deepEqual(await count(), before, "no record, no counter row, no reservation, and the refused logout revoked nothing");
    assert.equal((await rest("POST", "/v1/auth/refresh", { body: { refreshToken: "srt_unknown" } })).status, 401, "a call without a credential is not refused");
  });
});

describe("per-user rate limit turned off", () => {
  it("lets a user make any number of calls with --rate-limit-per-user 0", async () => {
    const app = await startTestApp({ flags: ["--rate-limit-per-user", "0"] });
    try {
      const rest = restClient(app.baseUrl);
      await makeUser(app.db, "frank");
      const login = await rest<{ accessToken: string }>("POST", "/v1/auth/login", { body: { loginId: "frank", password: STRONG_PASSWORD } });
      for (let i = 0; i < 700; i++) {
        const reply = await rest("GET", "/v1/users/me", { token: login.body.accessToken });
        if (reply.status !== 200) assert.fail(`call ${i + 1} answered ${reply.status}`);
      }
    } finally {
      await app.close();
    }
  });
});

describe("--rate-limit-per-user", () => {
  it("defaults to 600, reads SVC_RATE_LIMIT_PER_USER, and the flag wins", () => {
    assert.equal(loadConfig([], {}).rateLimitPerUser, 600);
    assert.equal(loadConfig([], { SVC_RATE_LIMIT_PER_USER: "0" }).rateLimitPerUser, 0);
    assert.equal(loadConfig(["--rate-limit-per-user", "120"], { SVC_RATE_LIMIT_PER_USER: "0" }).rateLimitPerUser, 120);
  });

  for (const value of ["-1", "1.5", "many", ""]) {
    it(`refuses "${value}" with an error naming the flag`, () => {
      assert.throws(
        () => loadConfig([`--rate-limit-per-user=${value}`], {}),
        (error: Error) => error instanceof ConfigError && /--rate-limit-per-user: expected a whole number/.test(error.message),
      );
    });
  }
});

describe("PrincipalRateLimiter", () => {
  const MINUTE = 60_000;
  const start = 100 * MINUTE; // a bucket boundary
  const refusedAfter = (limiter: PrincipalRateLimiter, now: number): number => {
    try {
      limiter.take("users/a", now);
    } catch (error) {
      assert.ok(error instanceof DomainError && error.code === "resource_exhausted");
      return Number(error.headers?.["retry-after"]);
    }
    return 0;
  };

  it("slides: calls late in one minute still count early in the next, with a Retry-After that lets the next one in", () => {
    const limiter = new PrincipalRateLimiter(5);
    for (let i = 0; i < 5; i++) limiter.take("users/a", start + 50_000);
    assert.equal(refusedAfter(limiter, start + 59_000), 1 + 12, "rest of the minute, then until 4 of the 5 are inside the window");
    // 1 s into the next minute, 59/60 of the previous one is still inside the window: ceil(5 × 59/60) = 5.
    const t = start + MINUTE + 1_000;
    const retry = refusedAfter(limiter, t);
    assert.equal(retry, 11, "the same instant, start + 72 s");
    assert.equal(refusedAfter(limiter, t + retry * 1000 - 100), 1, "still full just before");
    assert.equal(refusedAfter(limiter, t + retry * 1000), 0, "let in when Retry-After has passed");
    assert.equal(refusedAfter(limiter, t + retry * 1000), 12, "that call counts: the next waits until 3 of the 5 are left");
  });

  it("forgets principals idle for two minutes", () => {
    const limiter = new PrincipalRateLimiter(5);
    for (let i = 0; i < 1000; i++) limiter.take(`users/u${i}`, start);
    limiter.take("users/late", start + MINUTE);
    assert.equal(limiter.size, 1001, "the previous minute still counts");
    limiter.take("users/late", start + 2 * MINUTE);
    assert.equal(limiter.size, 1);
  });

  it("refuses a limit below 1", () => {
    assert.throws(() => new PrincipalRateLimiter(0), RangeError);
  });
});
