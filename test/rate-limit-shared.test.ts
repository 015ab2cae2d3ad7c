// The per-user limit shared by replicas (contract §15.6, decision 0071): two
// limiters on one store stand for two API replicas. A user's requests spread
// over both, or all sent to one while the other lives, or sent at once to
// both, are admitted up to the limit and no further; the store sees one
// statement per block of requests, none for a refusal; the store's window
// slides as the in-process one does, and its old minutes are cleaned up; an
// unreachable store leaves the limit counted in the process.
import assert from "node:assert/strict";
import { after, before, describe, it, type TestContext } from "node:test";
import { sql } from "slonik";
import { SharedPrincipalRateLimiter } from "../shared/identity/auth/principal-rate-limit-shared.ts";
import { deleteSpentSignInState } from "../shared/identity/auth/sign-in-state-cleanup.ts";
import { reservePrincipalRequests } from "../shared/identity/auth/principal-request-count.store.ts";
import { msUntilRoom } from "../shared/identity/auth/sliding-window.ts";
import { createDb, type Db } from "../shared/platform/db.ts";
import { DomainError } from "../shared/platform/errors.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { quietLogger } from "./helpers/logger.ts";

/** Whether the call was admitted; a refusal must be resource_exhausted with a Retry-After. */
async function admitted(limiter: SharedPrincipalRateLimiter, principal: string): Promise<boolean> {
  try {
    await limiter.take(principal);
    return true;
  } catch (error) {
    assert.ok(error instanceof DomainError && error.code === "resource_exhausted", String(error));
    assert.ok(Number(error.headers?.["retry-after"]) >= 1);
    return false;
  }
}

async function countAdmitted(calls: Promise<boolean>[]): Promise<number> {
  return (await Promise.all(calls)).filter(Boolean).length;
}

/** Within ±10 % of the limit, and never over it by more than the window's slide during the test. */
function assertNearLimit(t: TestContext, admittedCount: number, limit: number, what: string): void {
  t.diagnostic(`${what}: ${admittedCount} of a limit of ${limit} admitted`);
  assert.ok(admittedCount >= 0.9 * limit && admittedCount <= 1.1 * limit, `${what}: ${admittedCount} admitted under a limit of ${limit}`);
}

describe("per-user limit shared by replicas", () => {
  const LIMIT = 100;
  let database: TestDatabase;
  let db: Db;
  let replicas: SharedPrincipalRateLimiter[];
  before(async () => {
    database = await createTestDatabase();
    db = await createDb(database.url, quietLogger(), { maxPoolSize: 4, side: true });
    replicas = [0, 1].map(() => new SharedPrincipalRateLimiter({ db, limit: LIMIT, logger: quietLogger() }));
  });
  after(async () => {
    await db?.end();
    await database?.drop();
  });

  it("admits a user's requests spread over both replicas up to the limit, not twice it", async (t) => {
    let count = 0;
    for (let i = 0; i < 2 * LIMIT; i++) if (await admitted(replicas[i % 2]!, "users/spread")) count++;
    assertNearLimit(t, count, LIMIT, "spread one by one");
  });

  it("admits a user that calls one replica only up to the whole limit, not its share", async (t) => {
    let count = 0;
    for (let i = 0; i < 2 * LIMIT; i++) if (await admitted(replicas[0]!, "users/sticky")) count++;
    assertNearLimit(t, count, LIMIT, "all on one replica");
    assert.ok(await admitted(replicas[1]!, "users/other"), "another user is unaffected");
  });

  it("holds a burst sent to both replicas at once", async (t) => {
    const calls = Array.from({ length: 3 * LIMIT }, (_, i) => admitted(replicas[i % 2]!, "users/burst"));
    assertNearLimit(t, await countAdmitted(calls), LIMIT, "a concurrent burst");
  });

  it("makes one store statement per block of requests, and none for a refused one", async (t) => {
    const limiter = new SharedPrincipalRateLimiter({ db, limit: 600, logger: quietLogger() });
    let count = 0;
    for (let i = 0; i < 600; i++) if (await admitted(limiter, "users/busy")) count++;
    assertNearLimit(t, count, 600, "one replica at the default limit");
    assert.ok(limiter.reservations <= count / 10, `${limiter.reservations} store statements for ${count} requests`);
    while (await admitted(limiter, "users/busy")); // until the window is full
    const before = limiter.reservations;
    for (let i = 0; i < 50; i++) assert.equal(await admitted(limiter, "users/busy"), false);
    assert.equal(limiter.reservations, before, "a refusal is answered from the replica's memory until its Retry-After");
  });

  it("counts in the process while the store cannot be reached", async () => {
    const gone = await createDb(database.url, quietLogger(), { maxPoolSize: 1, side: true });
    await gone.end();
    const limiter = new SharedPrincipalRateLimiter({ db: gone, limit: 5, logger: quietLogger() });
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await admitted(limiter, "users/offline"));
    assert.deepEqual(answers, [true, true, true, true, true, false, false]);
  });
});

describe("principal_request_reserve", () => {
  const MINUTE = 60_000;
  const start = Date.UTC(2030, 0, 1); // a minute boundary
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase();
    db = await createDb(database.url, quietLogger(), { maxPoolSize: 2, side: true });
  });
  after(async () => {
    await db?.end();
    await database?.drop();
  });

  /** Reserves one request of users/a at `at`; answers 0 when granted, else the Retry-After in seconds. */
  const refusedAfter = async (at: number): Promise<number> => {
    const reservation = await reservePrincipalRequests(db, "users/a", 5, 1, new Date(at));
    return reservation.granted === 1 ? 0 : Math.ceil(msUntilRoom(5, reservation) / 1000);
  };

  it("slides as the in-process window does, with a Retry-After that lets the next one in", async () => {
    for (let i = 0; i < 5; i++) assert.equal(await refusedAfter(start + 50_000), 0);
    assert.equal(await refusedAfter(start + 59_000), 1 + 12, "rest of the minute, then until 4 of the 5 are inside the window");
    const t = start + MINUTE + 1_000;
    const retry = await refusedAfter(t);
    assert.equal(retry, 11, "the same instant, start + 72 s");
    assert.equal(await refusedAfter(t + retry * 1000 - 100), 1, "still full just before");
    assert.equal(await refusedAfter(t + retry * 1000), 0, "let in when Retry-After has passed");
    assert.equal(await refusedAfter(t + retry * 1000), 12, "that call counts: the next waits until 3 of the 5 are left");
  });

  it("grants a block only as far as the window has room, and forgets minutes that left it", async () => {
    const take = (at: number) => reservePrincipalRequests(db, "users/b", 10, 4, new Date(at));
    assert.deepEqual(await take(start), { granted: 4, previous: 0, current: 4, elapsedMs: 0 });
    await take(start + 1);
    assert.deepEqual(await take(start + 2), { granted: 2, previous: 0, current: 10, elapsedMs: 2 });
    assert.equal((await take(start + 3)).granted, 0);
    assert.deepEqual(await take(start + 3 * MINUTE), { granted: 4, previous: 0, current: 4, elapsedMs: 0 }, "two minutes later nothing counts");
    const rows = await db.any(sql.unsafe`select minute::int as minute from principal_request_count where principal = 'users/b'`);
    assert.deepEqual(rows, [{ minute: start / MINUTE + 3 }]);
  });

  it("leaves the clean-up of spent sign-in state only the counts of the window", async () => {
    await reservePrincipalRequests(db, "users/now", 10, 1);
    await reservePrincipalRequests(db, "users/gone", 10, 1, new Date(Date.now() - 2 * MINUTE));
    const { principalRequestCounts } = await deleteSpentSignInState(db);
    assert.ok((principalRequestCounts ?? 0) >= 1, "the old minute is deleted");
    const left = await db.anyFirst(sql.unsafe`select principal from principal_request_count where principal in ('users/now', 'users/gone')`);
    assert.deepEqual(left, ["users/now"]);
  });
});
