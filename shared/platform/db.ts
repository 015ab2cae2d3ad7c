// The metadata store: one slonik pool (on pg) for domain queries.
import { createPool, SchemaValidationError, sql, type DatabasePool, type DatabaseTransactionConnection, type Interceptor } from "slonik";
import { z } from "zod";
import type { Logger } from "./logger.ts";

export type Db = DatabasePool;
export type Tx = DatabaseTransactionConnection;

export interface DbOptions {
  maxPoolSize?: number;
  /** Statement timeout for domain queries, in milliseconds. */
  statementTimeoutMs?: number;
  /**
   * A side pool: its short, self-contained queries may run while the caller
   * holds a transaction of the main pool (settings cache misses, counters that
   * must commit whatever the call does). The main pool refuses that, so a
   * call can never wait on its own pool while holding one of its connections.
   */
  side?: boolean;
}

/**
 * How the service's connections name themselves in pg_stat_activity: "svc",
 * or "svc <part>" for its own clients (settings listener, leader, worker).
 */
export const APPLICATION_NAME = "svc";

export async function createDb(url: string, logger: Logger, options: DbOptions = {}): Promise<Db> {
  const pool = await createPool(withApplicationName(url), {
    maxPoolSize: options.maxPoolSize ?? 20,
    statementTimeout: options.statementTimeoutMs ?? 30_000,
    connectionTimeout: 5_000,
    idleTimeout: 30_000,
    captureStackTrace: false,
    // Every query leaves the session as it found it; DISCARD ALL after each
    // pooled query would double the cost of a round trip.
    resetConnection: async () => {},
    dangerouslyAllowForeignConnections: options.side === true,
    interceptors: [resultParser],
  });
  pool.on("error", (error) => logger.warn({ error: String(error) }, "metadata store connection error"));
  return pool;
}

/** The URL with application_name set, unless the operator's URL sets one. */
function withApplicationName(url: string): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has("application_name")) parsed.searchParams.set("application_name", APPLICATION_NAME);
  return parsed.toString();
}

/**
 * Hot paths (a task run's claim and settlement, the session lookup, a
 * sign-in's statements, every audit record) name their statements
 * (sql.prepared): each connection then parses and plans them once, not on
 * every call. A name stands for one text; this is sql.prepared for a
 * statement whose rows are not read.
 */
export function preparedCommand(name: string) {
  return sql.prepared(name, unreadRow);
}

const unreadRow = z.object({});

// Row shapes many stores read. A schema is a module constant, never built in
// a function: zod compiles its parser on the first parse, so a schema built
// per call compiles per call (test/store-schemas.test.ts keeps it so).

/** A count, selected or returned as `n` (`count(*)::int as n`). */
export const countRow = z.object({ n: z.number() });

/** A text key `id`. */
export const textIdRow = z.object({ id: z.string() });

/** A bigint key `id`, as a number (int8 arrives as a BigInt). */
export const serialIdRow = z.object({ id: z.coerce.number() });

/**
 * Makes sql.type(schema) queries validate and transform their rows. It is
 * synchronous (row schemas have no async parts): slonik runs an async row
 * transform through a task queue per row, which costs more than the parse
 * itself on large results (audit exports).
 */
const resultParser: Interceptor = {
  name: "result-parser",
  transformRow: (context, query, row) => {
    const parser = context.resultParser;
    if (!parser) return row;
    const result = parser["~standard"].validate(row);
    if (result instanceof Promise) throw new Error("row schemas must be synchronous (sql.type with an async zod schema)");
    if (result.issues) throw new SchemaValidationError(query, row, result.issues as never);
    return result.value as typeof row;
  },
};

/** Resolves when the store answers a trivial query. */
export async function ping(db: Db): Promise<void> {
  await db.oneFirst(sql.unsafe`select 1`);
}
