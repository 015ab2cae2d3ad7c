// The settings cache drops an entry when the row changes, in any process,
// and reads from the store while its change channel is down.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "slonik";
import { createDb, type Db } from "../shared/platform/db.ts";
import { createSettingCache, type SettingCache } from "../shared/governance/settings/setting-cache.ts";
import { getSignInOptions } from "../shared/governance/settings/workspace-profile.ts";
import { adminQuery, createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { quietLogger } from "./helpers/logger.ts";

describe("setting cache", () => {
  let database: TestDatabase;
  let db: Db;
  let cache: SettingCache;
  before(async () => {
    database = await createTestDatabase();
    db = await createDb(database.url, quietLogger());
    cache = createSettingCache(database.url, db, quietLogger());
  });
  after(async () => {
    await cache.close();
    await db.end();
    await database.drop();
  });

  const write = (value: object) =>
    db.query(sql.unsafe`insert into setting (name, value) values ('WORKSPACE_PROFILE', ${sql.jsonb(value as never)})
      on conflict (name) do update set value = excluded.value`);

  /** The title the cache reads, polled until it is `title` or the deadline (well inside the cache's 5 s maximum age) passes. */
  const titleWithin = async (title: string, ms = 2_000) => {
    const deadline = Date.now() + ms;
    let seen = (await getSignInOptions(cache)).title;
    while (seen !== title && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
      seen = (await getSignInOptions(cache)).title;
    }
    return seen;
  };

  it("fills defaults when nothing is stored", async () => {
    assert.deepEqual(await getSignInOptions(cache), {
      title: "Workspace",
      externalUrl: "",
      require2fa: false,
      disallowSignup: false,
      disallowPasswordSignin: false,
      allowEmailCodeSignin: false,
    });
  });

  it("sees a change made elsewhere right after it commits", async () => {
    for (const title of ["First", "Second", "Third"]) {
      await write({ title, require2fa: true });
      assert.equal(await titleWithin(title), title);
    }
    assert.equal((await getSignInOptions(cache)).require2fa, true);
  });

  it("ignores stored values of the wrong type", async () => {
    await write({ title: 42, require2fa: "yes" });
    assert.equal(await titleWithin("Workspace"), "Workspace");
    assert.equal((await getSignInOptions(cache)).require2fa, false);
  });

  it("reads from the store at once when its change channel is cut, and listens again", async () => {
    await write({ title: "Before" });
    assert.equal(await titleWithin("Before"), "Before");
    const cut = await adminQuery(`select pg_terminate_backend(pid, 5000) as cut from pg_stat_activity
      where datname = '${database.name}' and application_name = 'svc settings'`);
    assert.deepEqual(cut.rows, [{ cut: true }]);
    await write({ title: "While cut" });
    assert.equal((await getSignInOptions(cache)).title, "While cut");
    // Back on the channel (it reconnects within a second), changes still arrive.
    const listening = async () => (await adminQuery(`select count(*)::int as n from pg_stat_activity
      where datname = '${database.name}' and application_name = 'svc settings'`)).rows[0].n === 1;
    const deadline = Date.now() + 5_000;
    while (!(await listening()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(await listening(), "the cache listens again");
    await write({ title: "After" });
    assert.equal(await titleWithin("After"), "After");
  });
});
