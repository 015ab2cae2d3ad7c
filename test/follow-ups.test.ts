// The worker's follow-ups of its rollouts (shared/rollout/follow-ups.ts):
// what is asked for a rollout while its follow-up runs is done in one more
// pass, which starts no sooner than the interval after the one before; each
// rollout is followed up on its own. A pass announces the rollout on the
// change channel once, which is how these tests count passes.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { createDb, type Db } from "../shared/platform/db.ts";
import { RolloutFollowUps } from "../shared/change/rollout/follow-ups.ts";
import { rolloutName, type RolloutRef } from "../shared/change/rollout/rollout-names.ts";
import { CHANGE_CHANNEL, noticeChange } from "../shared/platform/watch/change-notice.store.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { quietLogger } from "./helpers/logger.ts";

const PASS_INTERVAL_MS = 50;
const STREAM_MS = 400;

describe("rollout follow-ups", () => {
  let database: TestDatabase;
  let db: Db;
  let listener: pg.Client;
  const heard: { name: string; at: number }[] = [];

  before(async () => {
    database = await createTestDatabase();
    db = await createDb(database.url, quietLogger());
    listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    listener.on("notification", (message) => heard.push({ name: message.payload ?? "", at: performance.now() }));
    await listener.query(`listen ${CHANGE_CHANNEL}`);
  });
  after(async () => {
    await listener.end();
    await db.end();
    await database.drop();
  });

  /** When the passes announced the rollout: read once a notice sent after them has arrived (notices arrive in commit order). */
  async function passesOf(ref: RolloutRef): Promise<number[]> {
    const marker = `marker ${heard.length}-${Math.random()}`;
    await noticeChange(db, marker);
    while (!heard.some((h) => h.name === marker)) await new Promise((resolve) => setTimeout(resolve, 10));
    return heard.filter((h) => h.name === rolloutName(ref)).map((h) => h.at);
  }

  it("follows up a burst of starts and ends of one rollout in two passes", async () => {
    const followUps = new RolloutFollowUps(db, quietLogger());
    const ref = { projectId: "p", id: "burst" };
    for (let i = 0; i < 40; i++) {
      followUps.afterStart(ref);
      followUps.afterEnd(ref, "users/someone", `stage-${i % 3}`);
    }
    await followUps.close();
    assert.equal((await passesOf(ref)).length, 2);
  });

  // Ends every 2 ms come while a pass runs; ends every 15 ms come after it, but within the interval.
  for (const spacingMs of [2, 15]) {
    it(`follows up a steady stream of ends (one every ${spacingMs} ms) at most once per interval`, async () => {
      const followUps = new RolloutFollowUps(db, quietLogger());
      const ref = { projectId: "p", id: `stream-${spacingMs}` };
      const started = performance.now();
      while (performance.now() - started < STREAM_MS) {
        followUps.afterEnd(ref, "users/someone", "stage");
        await new Promise((resolve) => setTimeout(resolve, spacingMs));
      }
      await followUps.close();
      const passes = (await passesOf(ref)).length;
      assert.ok(passes >= 2 && passes <= STREAM_MS / PASS_INTERVAL_MS + 2, `${passes} passes in ${STREAM_MS} ms`);
    });
  }

  it("follows up each rollout on its own", async () => {
    const followUps = new RolloutFollowUps(db, quietLogger());
    const first = { projectId: "p", id: "first" };
    const second = { projectId: "p", id: "second" };
    followUps.afterEnd(first, "users/someone", "stage");
    followUps.afterEnd(second, "users/someone", "stage");
    await followUps.close();
    assert.equal((await passesOf(first)).length, 1);
    assert.equal((await passesOf(second)).length, 1);
  });

  it("runs an ask that comes after the rollout's passes ended in a pass of its own", async () => {
    const followUps = new RolloutFollowUps(db, quietLogger());
    const ref = { projectId: "p", id: "later" };
    followUps.afterStart(ref);
    await followUps.close();
    followUps.afterEnd(ref, "users/someone", "stage");
    await followUps.close();
    assert.equal((await passesOf(ref)).length, 2);
  });
});
