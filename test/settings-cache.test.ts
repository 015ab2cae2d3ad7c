// The settings cache drops an entry when the row changes, in any process.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "slonik";
import { createDb, type Db } from "../shared/platform/db.ts";
import { createSettingCache, type SettingCache } from "../shared/settings/setting-cache.ts";
import { getSignInOptions } from "../shared/settings/workspace-profile.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
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
      const deadline = Date.now() + 10_000; // generous: the suite may be loading both cores
      let seen = "";
      while (seen !== title && Date.now() < deadline) seen = (await getSignInOptions(cache)).title;
      assert.equal(seen, title);
    }
    assert.equal((await getSignInOptions(cache)).require2fa, true);
  });

  it("ignores stored values of the wrong type", async () => {
    await write({ title: 42, require2fa: "yes" });
    await new Promise((r) => setTimeout(r, 200));
    const options = await getSignInOptions(cache);
    assert.equal(options.title, "Workspace");
    assert.equal(options.require2fa, false);
  });
});
