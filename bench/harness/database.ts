// The run's own database, svc_bench_<pid>: created, migrated and dropped on
// the PostgreSQL server the tests use too (PG_URL, else an embedded one).
import { pino } from "pino";
import type { Logger } from "../../shared/platform/logger.ts";
import { createMigratedDatabase, startPostgresServer } from "../../test/helpers/postgres-server.ts";
import { note } from "./types.ts";

export interface BenchDatabase {
  url: string;
  close(): Promise<void>;
}

/** Warnings and errors of the platform code, on stderr. */
export function stderrLogger(): Logger {
  return pino({ level: "warn" }, pino.destination({ dest: 2, sync: true }));
}

export async function openBenchDatabase(): Promise<BenchDatabase> {
  const logger = stderrLogger();
  const server = await startPostgresServer(logger);
  try {
    const database = await createMigratedDatabase(server, `svc_bench_${process.pid}`, logger);
    note(`database svc_bench_${process.pid} migrated on ${server.label}`);
    return {
      url: database.url,
      async close() {
        await database.drop().catch((error: unknown) => note(`could not drop the bench database: ${String(error)}`));
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
