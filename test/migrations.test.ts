// Migrations at start-up (spec Versioning 5, 6): a failure stops the process
// with exit code 1 and leaves the schema as it was; replicas starting
// together migrate once.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { loadMigrations, migrate } from "../shared/platform/migrate.ts";
import { adminQuery, createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { quietLogger } from "./helpers/logger.ts";
import { killAllServers, runUntilExit } from "./helpers/server-process.ts";

const TEST_TIMEOUT = { timeout: 60_000 };

describe("migrations", () => {
  const databases: TestDatabase[] = [];
  const database = async (options: { empty?: boolean } = {}) => {
    const db = await createTestDatabase(options);
    databases.push(db);
    return db;
  };
  after(async () => {
    await killAllServers();
    await Promise.all(databases.map((db) => db.drop()));
  });

  /** Starts api/main.ts on the database and expects it to fail; returns its whole output. */
  const failedStart = async (db: TestDatabase) => {
    const { exit, server } = await runUntilExit({ entry: "api/main.ts", args: ["--port", "0"], env: { PG_URL: db.url } });
    assert.deepEqual(exit, { code: 1, signal: null }, server.output());
    assert.ok(server.logs.some((l) => l.json?.msg === "api failed to start" && l.json.level === "ERROR"), server.output());
    return server.output();
  };

  it("refuses to start when an applied migration was changed", TEST_TIMEOUT, async () => {
    const db = await database();
    await adminQuery("update schema_migration set checksum = 'x' where version = '0001'", db.url);
    const output = await failedStart(db);
    assert.match(output, /0001_setting\.sql/);
    assert.match(output, /changed/);
  });

  it("a failing migration stops the start and leaves the schema unchanged", TEST_TIMEOUT, async () => {
    const db = await database({ empty: true });
    await adminQuery("create table setting (x int)", db.url);
    const output = await failedStart(db);
    assert.match(output, /migration 0001_setting\.sql failed/);
    const applied = await adminQuery("select version from schema_migration where version = '0001'", db.url);
    assert.equal(applied.rowCount, 0);
    const columns = await adminQuery("select column_name from information_schema.columns where table_name = 'setting'", db.url);
    assert.deepEqual(columns.rows, [{ column_name: "x" }]);
    const objects = await adminQuery(
      "select (select count(*) from pg_proc where proname = 'setting_notify_change')::int as functions, " +
        "(select count(*) from pg_namespace where nspname = 'graphile_worker')::int as job_schemas",
      db.url,
    );
    assert.deepEqual(objects.rows, [{ functions: 0, job_schemas: 0 }]);
  });

  it("refuses a store migrated by a newer version (no downgrade)", TEST_TIMEOUT, async () => {
    const db = await database();
    await adminQuery("insert into schema_migration (version, name, checksum) values ('9999', '9999_from_the_future.sql', 'x')", db.url);
    const output = await failedStart(db);
    assert.match(output, /9999_from_the_future\.sql/);
    assert.match(output, /newer version/);
    assert.match(output, /downgrade/);
  });

  it("concurrent migrations apply each file once", TEST_TIMEOUT, async () => {
    const db = await database({ empty: true });
    await Promise.all(Array.from({ length: 5 }, () => migrate(db.url, quietLogger())));
    const files = await loadMigrations();
    const applied = await adminQuery("select version, name, checksum from schema_migration order by version", db.url);
    assert.deepEqual(
      applied.rows,
      files.map(({ version, name, checksum }) => ({ version, name, checksum })),
    );
    const jobs = await adminQuery("select 1 from pg_namespace where nspname = 'graphile_worker'", db.url);
    assert.equal(jobs.rowCount, 1);
    await migrate(db.url, quietLogger()); // and again: nothing left to do, no error
  });
});
