// Forward-only schema migrations, run at start-up under an advisory lock so
// that replicas starting together migrate once (spec Versioning 5, 6).
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runMigrations as runWorkerMigrations } from "graphile-worker";
import pg from "pg";
import { MIGRATION_LOCK } from "./locks.ts";
import type { Logger } from "./logger.ts";

export const MIGRATIONS_DIR = fileURLToPath(new URL("../../migrations/", import.meta.url));

const FILE_NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith(".sql")).sort();
  const migrations: Migration[] = [];
  for (const name of names) {
    const match = FILE_NAME.exec(name);
    if (!match) throw new MigrationError(`migration file "${name}" must be named NNNN_slug.sql`);
    const sql = await readFile(join(dir, name), "utf8");
    migrations.push({ version: match[1]!, name, sql, checksum: sha256(sql) });
  }
  return migrations;
}

/** Applies every pending migration, then graphile-worker's schema. */
export async function migrate(url: string, logger: Logger): Promise<void> {
  const migrations = await loadMigrations();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query(`create table if not exists schema_migration (
      version text primary key, name text not null, checksum text not null,
      applied_at timestamptz not null default now())`);
    const applied = await client.query<{ version: string; name: string; checksum: string }>(
      "select version, name, checksum from schema_migration order by version",
    );
    const pending = pendingMigrations(migrations, applied.rows);
    for (const migration of pending) await apply(client, migration, logger);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    pool.on("error", (error) => logger.warn({ error }, "job queue migration connection error"));
    pool.on("connect", (client) => client.on("error", (error) => logger.warn({ error }, "job queue migration client error")));
    try {
      await runWorkerMigrations({ pgPool: pool, logger: undefined });
    } finally {
      await pool.end();
    }
    logger.info({ applied: pending.length, total: migrations.length }, "metadata store schema is up to date");
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    await client.end();
  }
}

/** Checks the applied history against the files and returns what is left to apply. */
export function pendingMigrations(
  migrations: readonly Migration[],
  applied: readonly { version: string; name: string; checksum: string }[],
): Migration[] {
  const known = new Map(migrations.map((m) => [m.version, m]));
  for (const row of applied) {
    const file = known.get(row.version);
    if (!file) {
      throw new MigrationError(
        `the metadata store has migration ${row.name}, which this server does not know: ` +
          "it was written by a newer version, and downgrade is unsupported (restore a backup to roll back)",
      );
    }
    if (file.checksum !== row.checksum) {
      throw new MigrationError(`migration ${file.name} was changed after it was applied; migrations are immutable`);
    }
  }
  const done = new Set(applied.map((r) => r.version));
  return migrations.filter((m) => !done.has(m.version));
}

async function apply(client: pg.Client, migration: Migration, logger: Logger): Promise<void> {
  const started = performance.now();
  try {
    await client.query("begin");
    await client.query(migration.sql);
    await client.query("insert into schema_migration (version, name, checksum) values ($1, $2, $3)", [
      migration.version,
      migration.name,
      migration.checksum,
    ]);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw new MigrationError(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
  logger.info({ migration: migration.name, duration_ms: Math.round(performance.now() - started) }, `migration ${migration.name} applied`);
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
