// Each test file gets its own database, cloned from the template that
// test/run.ts migrated once.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { withDatabase } from "../../shared/platform/postgres-url.ts";

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export function adminUrl(): string {
  const url = process.env.SVC_TEST_PG_URL;
  if (!url) throw new Error("run the tests with `npm test` (it provides the PostgreSQL server and the template)");
  return url;
}

export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `svc_test_${randomBytes(6).toString("hex")}`;
  const template = options.empty ? "template0" : process.env.SVC_TEST_TEMPLATE;
  await adminQuery(`create database ${name} template ${template}`);
  return {
    url: withDatabase(adminUrl(), name),
    name,
    drop: async () => void (await adminQuery(`drop database if exists ${name} with (force)`)),
  };
}

export async function adminQuery(statement: string, url = adminUrl()): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}
