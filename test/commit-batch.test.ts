// Writes gathered until the commit (decision 0140): a withTransaction
// transaction's queued items reach their write together, after the use
// case's work and before its COMMIT; anywhere else each is written at once.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { createDb, type Db } from "../shared/platform/db.ts";
import { commitBatch, withTransaction } from "../shared/platform/transaction.ts";
import { CHANGE_CHANNEL, noticeChange } from "../shared/platform/watch/change-notice.store.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { quietLogger } from "./helpers/logger.ts";

const nameRow = z.object({ name: z.string() });

describe("writes gathered until the commit", () => {
  let database: TestDatabase;
  let db: Db;
  const writes: string[][] = [];
  /** Inserts its items into batch_item, remembering each call's items. */
  const queueItem = commitBatch<string>(async (tx, items) => {
    writes.push(items);
    await tx.query(sql.unsafe`insert into batch_item (name) select unnest(${sql.array(items, "text")})`);
  });
  const stored = async (from: CommonQueryMethods = db) => (await from.any(sql.type(nameRow)`select name from batch_item order by id`)).map((r) => r.name);

  before(async () => {
    database = await createTestDatabase();
    db = await createDb(database.url, quietLogger());
    await db.query(sql.unsafe`create table batch_item (id serial primary key, name text not null check (name <> 'refused'))`);
  });
  after(async () => {
    await db.end();
    await database.drop();
  });

  it("writes a transaction's items in one call after its work, in the order queued, and commits them", async () => {
    writes.length = 0;
    await db.query(sql.unsafe`truncate batch_item`);
    await withTransaction(db, async (tx) => {
      for (const name of ["a", "b", "c"]) await queueItem(tx, name);
      assert.deepEqual(writes, [], "nothing written during the work");
      assert.deepEqual(await stored(tx), []);
    });
    assert.deepEqual(writes, [["a", "b", "c"]]);
    assert.deepEqual(await stored(), ["a", "b", "c"]);
  });

  it("rolls the transaction back when the gathered write fails", async () => {
    writes.length = 0;
    await db.query(sql.unsafe`truncate batch_item`);
    await assert.rejects(
      withTransaction(db, async (tx) => {
        await tx.query(sql.unsafe`insert into batch_item (name) values ('the change')`);
        await queueItem(tx, "refused");
      }),
      /check integrity constraint/,
    );
    assert.deepEqual(await stored(), [], "the change rolled back with the write");
  });

  it("writes each item at once on a pool and in a savepoint", async () => {
    writes.length = 0;
    await db.query(sql.unsafe`truncate batch_item`);
    await queueItem(db, "pooled");
    await withTransaction(db, async (tx) => {
      await tx.transaction(async (savepoint) => {
        await queueItem(savepoint, "saved");
        assert.deepEqual(await stored(savepoint), ["pooled", "saved"], "written within the savepoint");
      });
    });
    assert.deepEqual(writes, [["pooled"], ["saved"]]);
  });

  it("sends a transaction's change notices at its commit, each name once", async () => {
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on("notification", (n) => heard.push(n.payload ?? ""));
      await listener.query(`listen ${CHANGE_CHANNEL}`);
      await withTransaction(db, async (tx) => {
        for (const name of ["projects/p/issues/1", "projects/p/rollouts/1", "projects/p/issues/1"]) await noticeChange(tx, name);
        await new Promise((r) => setTimeout(r, 100));
        assert.deepEqual(heard, [], "nothing before the commit");
      });
      const deadline = Date.now() + 5_000;
      while (heard.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 100)); // a repeated name would arrive by now
      assert.deepEqual(heard, ["projects/p/issues/1", "projects/p/rollouts/1"]);
    } finally {
      await listener.end();
    }
  });
});
