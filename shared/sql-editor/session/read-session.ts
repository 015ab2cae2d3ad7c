// A read-only session on a target database (contract §14.3, §14.4): one
// connection through the chosen data source (a PostgreSQL one kept by the
// process's read connections between sessions, 0123), a READ ONLY transaction that is
// rolled back at the end (so even what a read-only transaction allows, a
// large object or a NOTIFY, never lasts), the schema to run in, and the
// query timeout as the server's statement timeout. Rows stream to a sink in
// batches, and reading stops when the sink has enough. Query reads through
// it with its limits; so can an export.
import { type ConnectionConfig, type Engine } from "../../inventory/index.ts";
import type { Column, Row } from "../cells.ts";
import { openMysqlSession } from "./my-read-session.ts";
import { openPostgresSession } from "./pg-read-session.ts";
import type { ReadConnections } from "./read-connections.ts";

export interface ReadSessionOptions {
  /** PostgreSQL: the search path; MySQL: the default database; "" keeps the connection's. */
  schema: string;
  /** Limit per statement in ms (WORKSPACE_PROFILE.query_timeout); undefined = none. */
  timeoutMs: number | undefined;
  /** The caller's: aborting it cancels the running statement on the target. */
  signal: AbortSignal;
  /** MySQL: the most rows a SELECT sends (sql_select_limit), so the server stops early; undefined = all. */
  selectLimit?: number;
  /** PostgreSQL: hand each cell as the target printed it (a string, or null) rather than as a value, for an export to print straight; MySQL ignores it. */
  printed?: boolean;
}

export interface RowSink {
  /** The result's columns, before any row. */
  columns(columns: Column[]): void;
  /** The next rows, in order. false: no more are wanted (the rest is not read from the target); a promise holds reading until it settles. */
  rows(batch: Row[]): boolean | Promise<boolean>;
}

/** A PostgreSQL statement's rows as lines of `COPY … TO STDOUT` in text format, for a CSV export to print straight (docs/decisions/0131). */
export interface CopyLineSink {
  /** The result's columns, before any line. */
  columns(columns: Column[]): void;
  /** One row's line, its newline included; the bytes are the driver's, valid during the call only. false: no more are wanted. */
  line(bytes: Buffer): boolean;
  /** Undefined while the consumer keeps up; else settles when it has caught up (true) or stopped (false). */
  backlog(): Promise<boolean> | undefined;
}

/** Which server a session reads from (MySQL and MariaDB differ in how they explain). */
export type Dialect = "POSTGRES" | "MYSQL" | "MARIADB";

export interface ReadSession {
  readonly dialect: Dialect;
  /**
   * Runs one read statement and hands its rows to the sink, `batchRows` at a
   * time. Answers the target's message when the target refused the
   * statement ("" otherwise). Throws deadline_exceeded past the query
   * timeout, canceled when the signal aborts (the statement is cancelled on
   * the target either way), failed_precondition when the connection is lost.
   */
  read(statement: string, sink: RowSink, batchRows: number): Promise<{ error: string }>;
  /**
   * PostgreSQL: runs one SELECT (TABLE, VALUES, WITH … SELECT) as `COPY (…)
   * TO STDOUT` and hands its lines to the sink; a sink that wants no more
   * cancels it. Answers and throws as read does.
   */
  copy?(statement: string, sink: CopyLineSink): Promise<{ error: string }>;
  /** Rolls the transaction back and closes the connection. */
  close(): Promise<void>;
}

/** Where a session reads: the engine, its connection and database, and the process's kept connections. */
export interface ReadPlace {
  connections: ReadConnections;
  engine: Engine;
  config: ConnectionConfig;
  database: string;
}

/** Opens the session; a connection or setup problem is failed_precondition (an unknown MySQL schema: invalid_argument). */
export function openReadSession(place: ReadPlace, options: ReadSessionOptions): Promise<ReadSession> {
  const { connections, engine, config, database } = place;
  return engine === "POSTGRES" ? openPostgresSession(connections, config, database, options) : openMysqlSession(config, database, options);
}

/** Runs `use` on a session, and closes it whatever happens. */
export async function withReadSession<T>(place: ReadPlace, options: ReadSessionOptions, use: (session: ReadSession) => Promise<T>): Promise<T> {
  const session = await openReadSession(place, options);
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}
