// `npm test`: runs every test file with node's test runner against a real
// PostgreSQL — PG_URL when set, else an embedded one — with each file in its
// own database cloned from a template migrated once. Fails when no test ran.
import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../shared/platform/embedded-postgres.ts";
import { createLogger } from "../shared/platform/logger.ts";
import { migrate } from "../shared/platform/migrate.ts";
import { withDatabase } from "../shared/platform/postgres-url.ts";
import { quietLogger } from "./helpers/logger.ts";

const TEST_FILES = ["test/**/*.test.ts", "api/**/*.test.ts", "shared/**/*.test.ts", "worker/**/*.test.ts"];

const log = createLogger({ json: false, debug: false });
const { adminUrl, stop } = await testServer();
const template = `svc_template_${process.pid}`;
try {
  await admin(adminUrl, `drop database if exists ${template}`);
  await admin(adminUrl, `create database ${template}`);
  await migrate(withDatabase(adminUrl, template), quietLogger());
  const { code, tests, failed } = await runTests({ SVC_TEST_PG_URL: adminUrl, SVC_TEST_TEMPLATE: template });
  if (tests === 0) log.error("no test ran: the suite counts as failed");
  process.exitCode = tests === 0 || failed > 0 ? 1 : code;
} finally {
  await admin(adminUrl, `drop database if exists ${template} with (force)`).catch(() => undefined);
  await stop();
}

async function testServer(): Promise<{ adminUrl: string; stop: () => Promise<void> }> {
  if (process.env.PG_URL) {
    log.info("tests use the PostgreSQL server of PG_URL");
    return { adminUrl: withDatabase(process.env.PG_URL, "postgres"), stop: async () => {} };
  }
  const dataDir = await mkdtemp(join(tmpdir(), "svc-test-"));
  await chmod(dataDir, 0o755); // the embedded server runs as the postgres user when we are root
  const embedded = await startEmbeddedPostgres(dataDir, quietLogger());
  log.info("tests use an embedded PostgreSQL (set PG_URL to use another server)");
  return {
    adminUrl: withDatabase(embedded.url, "postgres"),
    stop: async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function runTests(env: Record<string, string>): Promise<{ code: number; tests: number; failed: number }> {
  const args = ["--test", "--test-reporter=spec", "--test-concurrency=3", ...process.argv.slice(2)];
  if (!process.argv.slice(2).some((a) => !a.startsWith("-"))) args.push(...TEST_FILES);
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  let tail = "";
  child.stdout.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    tail = (tail + chunk.toString()).slice(-4000);
  });
  return new Promise((resolve) => {
    child.on("close", (code) => {
      const count = (label: string) => Number(new RegExp(`ℹ ${label} (\\d+)`).exec(tail)?.[1] ?? 0);
      resolve({ code: code ?? 1, tests: count("tests"), failed: count("fail") });
    });
  });
}
