// The leader lock (contract §15.7): one holder at a time; a holder whose
// connection dies steps down and another takes over; stop releases the lock.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { LEADER_LOCK } from "../shared/platform/locks.ts";
import { startLeaderElection, type Leadership } from "../shared/platform/leader.ts";
import { adminQuery, createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { quietLogger } from "./helpers/logger.ts";

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe("leader election", () => {
  let database: TestDatabase;
  const elected: string[] = [];
  const stepped: string[] = [];
  const candidates = new Map<string, Leadership>();
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    for (const leadership of candidates.values()) await leadership.stop();
    await database.drop();
  });

  const candidate = (name: string) => {
    const leadership = startLeaderElection({
      url: database.url,
      logger: quietLogger(),
      retryMs: 100,
      healthCheckMs: 200,
      onElected: async () => {
        elected.push(name);
        return async () => void stepped.push(name);
      },
    });
    candidates.set(name, leadership);
    return leadership;
  };
  const leaders = () => [...candidates].filter(([, l]) => l.isLeader()).map(([n]) => n);

  it("elects exactly one of several candidates", async () => {
    candidate("a");
    candidate("b");
    candidate("c");
    await until(() => leaders().length === 1, 5_000, "a leader");
    await sleep(400);
    assert.equal(leaders().length, 1);
    assert.equal(elected.length, 1);
  });

  it("steps down when its connection is killed, and another takes over", async () => {
    const [first] = leaders();
    await adminQuery(`select pg_terminate_backend(pid) from pg_locks
      where locktype = 'advisory' and granted and ((classid::bigint << 32) | objid::bigint) = ${LEADER_LOCK}
        and database = (select oid from pg_database where datname = '${database.name}')`);
    await until(() => stepped.includes(first!), 5_000, "the old leader to stop its runners");
    await until(() => leaders().length === 1, 5_000, "a new leader");
    assert.equal(elected.length, 2);
  });

  it("releases the lock on stop, so a waiting candidate leads", async () => {
    const [current] = leaders();
    await candidates.get(current!)!.stop();
    candidates.delete(current!);
    assert.ok(stepped.includes(current!));
    await until(() => leaders().length === 1, 5_000, "the next leader");
    assert.notEqual(leaders()[0], current);
  });
});
