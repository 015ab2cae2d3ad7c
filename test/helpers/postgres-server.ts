// The PostgreSQL server that the test suite and the benchmarks run on: the
// server of PG_URL when set (only databases they create are touched there),
// else an embedded one in a temporary folder, removed at the end.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres } from "../../shared/platform/embedded-postgres.ts";
import type { Logger } from "../../shared/platform/logger.ts";
import { migrate } from "../../shared/platform/migrate.ts";
import { withDatabase } from "../../shared/platform/postgres-url.ts";
import { adminQuery } from "./db.ts";

export interface PostgresServer {
  /** URL of the server's `postgres` database, for CREATE/DROP DATABASE. */
  adminUrl: string;
  label: string;
  stop(): Promise<void>;
}

export async function startPostgresServer(logger: Logger): Promise<PostgresServer> {
  if (process.env.PG_URL) {
    return { adminUrl: withDatabase(process.env.PG_URL, "postgres"), label: "the PostgreSQL server of PG_URL", stop: async () => {} };
  }
  return startEmbeddedServer(logger);
}

/** An embedded server of its own, whatever PG_URL says. */
export async function startEmbeddedServer(logger: Logger): Promise<PostgresServer> {
  const dataDir = await mkdtemp(join(tmpdir(), "svc-pg-"));
  const embedded = await startEmbeddedPostgres(dataDir, logger);
  return {
    adminUrl: withDatabase(embedded.url, "postgres"),
    label: "an embedded PostgreSQL (set PG_URL to use another server)",
    async stop() {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates (afresh) and migrates a database on the server; returns its URL and how to drop it. */
export async function createMigratedDatabase(server: PostgresServer, name: string, logger: Logger): Promise<{ url: string; drop(): Promise<void> }> {
  const drop = async () => void (await adminQuery(`drop database if exists ${name} with (force)`, server.adminUrl));
  await drop();
  await adminQuery(`create database ${name}`, server.adminUrl);
  const url = withDatabase(server.adminUrl, name);
  try {
    await migrate(url, logger);
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
  return { url, drop };
}
