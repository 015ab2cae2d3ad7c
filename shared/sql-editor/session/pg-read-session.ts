// The read-only session on PostgreSQL, on a connection of the process's
// read connections (kept between sessions, docs/decisions/0123). Set up in
// one round trip: BEGIN READ ONLY, then for this transaction only the text
// settings the parser and the cells rely on (standard_conforming_strings, so
// a quote means to the server what it meant to the guard's parser; UTF-8, as
// the driver decodes it and COPY's lines are copied; hex bytea; ISO dates),
// the search path and the statement timeout. Each statement runs through a
// cursor (the extended protocol, which also refuses a text holding two
// statements) and is read in batches; closing the cursor stops it. A CSV
// export may read a SELECT through COPY instead (pg-copy.ts). A second
// connection, opened when first needed, ends the session's backend when the
// call is interrupted (pg_terminate_backend: a cancel could land between two
// of the statement's round trips, a COPY's describe and its start, and be
// lost; the connection is not kept after an interruption anyway), cancels a
// COPY its sink stopped, and looks up type names the session has not met. The
// connection goes back for another session only when every
// statement ended on its own (done, or refused by the target) and the
// rollback went through; otherwise it is closed.
import pg from "pg";
import type Cursor from "pg-cursor";
import { connectPostgres, type ConnectionConfig } from "../../inventory/index.ts";
import { failedPrecondition, invalidArgument, quoted } from "../../platform/index.ts";
import type { Row } from "../cells.ts";
import { readTypeNames, statementCursor, TypeNames } from "./pg-cells.ts";
import { copyOut, describeStatement, statementBody } from "./pg-copy.ts";
import type { ReadConnections, TakenConnection } from "./read-connections.ts";
import type { CopyLineSink, ReadSession, ReadSessionOptions, RowSink } from "./read-session.ts";
import { DriverError, StatementWatch, timeoutError } from "./statement-watch.ts";

const QUERY_CANCELED = "57014";
const MAX_IDENTIFIER_BYTES = 63;

export async function openPostgresSession(
  connections: ReadConnections,
  config: ConnectionConfig,
  database: string,
  options: ReadSessionOptions,
): Promise<ReadSession> {
  const setup = setupText(options);
  return new PgReadSession(config, database, await startedSession(connections, config, database, setup), options);
}

/** A connection in its read-only transaction; a kept one the target has closed meanwhile gives way to another. */
async function startedSession(connections: ReadConnections, config: ConnectionConfig, database: string, setup: string): Promise<TakenConnection> {
  const connection = await connections.take(config, database);
  try {
    await connection.client.query(setup);
    return connection;
  } catch (error) {
    await connection.destroy();
    if (connection.reused) return startedSession(connections, config, database, setup);
    throw failedPrecondition(`cannot start a read-only session on database "${database}": ${(error as Error).message}`, { cause: error });
  }
}

function setupText(options: ReadSessionOptions): string {
  const lines = ["begin read only", "set local client_encoding = utf8", "set local standard_conforming_strings = on", "set local bytea_output = hex", "set local datestyle = iso", "set local intervalstyle = postgres"];
  if (options.schema) lines.push(`set local search_path = ${identifier(options.schema)}`);
  if (options.timeoutMs !== undefined) lines.push(`set local statement_timeout = ${Math.max(1, Math.ceil(options.timeoutMs))}`);
  return lines.join("; ");
}

function identifier(name: string): string {
  if (Buffer.byteLength(name) > MAX_IDENTIFIER_BYTES) throw invalidArgument(`schema: ${quoted(name)} is longer than ${MAX_IDENTIFIER_BYTES} bytes`);
  return `"${name.replaceAll('"', '""')}"`;
}

class PgReadSession implements ReadSession {
  readonly dialect = "POSTGRES";
  private readonly config: ConnectionConfig;
  private readonly database: string;
  private readonly connection: TakenConnection;
  private readonly options: ReadSessionOptions;
  private readonly names = new TypeNames();
  private side: Promise<pg.Client> | undefined;
  /** Every statement so far ended on its own: nothing interrupted, nothing broken, no read under way. */
  private reusable = true;
  /** A COPY was cancelled because its sink wanted no more rows. */
  private stopped = false;

  constructor(config: ConnectionConfig, database: string, connection: TakenConnection, options: ReadSessionOptions) {
    this.config = config;
    this.database = database;
    this.connection = connection;
    this.options = options;
  }

  private get client(): pg.Client {
    return this.connection.client;
  }

  read(statement: string, sink: RowSink, batchRows: number): Promise<{ error: string }> {
    return this.run(() => this.stream(this.client.query(statementCursor(statement, this.options.printed ?? false)), sink, batchRows));
  }

  copy(statement: string, sink: CopyLineSink): Promise<{ error: string }> {
    return this.run(async () => {
      sink.columns(await this.columns(await driver(describeStatement(this.client, statement))));
      let stopping: Promise<void> | undefined;
      // A cancel might land after the COPY ended on its own: the connection is then not kept (stopped).
      const stop = () => {
        this.stopped = true;
        stopping = this.cancelRunning().catch(() => undefined);
      };
      try {
        await driver(copyOut(this.client, await statementBody(statement), sink, stop));
      } catch (error) {
        if (!stopping || !canceled(error)) throw error;
      } finally {
        await stopping;
      }
    });
  }

  /** Runs one statement's read under the watch; whether the connection may be kept follows how it ended. */
  private async run(work: () => Promise<void>): Promise<{ error: string }> {
    const watch = new StatementWatch(this.options.signal, this.options.timeoutMs, () => this.endBackend());
    let failure: unknown;
    this.reusable = false;
    try {
      await work();
    } catch (error) {
      failure = error;
    }
    await watch.end();
    this.reusable = !this.stopped && watch.error === undefined && (failure === undefined || refusedByTarget(failure));
    if (failure === undefined) return { error: "" };
    if (!(failure instanceof DriverError)) throw failure; // the sink's own
    if (watch.error) throw watch.error;
    return this.outcome(failure.cause);
  }

  /** Rolls back; the connection then goes back to the pool when the session ended cleanly, else it is closed. */
  async close(): Promise<void> {
    const rolledBack = this.reusable && (await this.client.query("rollback").then(() => true, () => false));
    await (rolledBack ? this.connection.giveBack() : this.connection.destroy());
    if (this.side) await (await this.side.catch(() => undefined))?.end().catch(() => undefined);
  }

  private async stream(cursor: Cursor, sink: RowSink, batchRows: number): Promise<void> {
    let { rows, fields } = await driver(readBatch(cursor, batchRows));
    sink.columns(await this.columns(fields));
    while (rows.length > 0) {
      const more = await sink.rows(rows);
      if (!more || rows.length < batchRows) break;
      rows = (await driver(readBatch(cursor, batchRows))).rows;
    }
    await driver(cursor.close());
  }

  private async columns(fields: pg.FieldDef[]) {
    const unknown = this.names.unknown(fields.map((f) => f.dataTypeID));
    if (unknown.length > 0) this.names.learn(await readTypeNames(await this.sideClient(), unknown));
    return this.names.columns(fields);
  }

  private cancelRunning(): Promise<void> {
    return this.signalBackend("pg_cancel_backend");
  }

  private endBackend(): Promise<void> {
    return this.signalBackend("pg_terminate_backend");
  }

  private async signalBackend(how: "pg_cancel_backend" | "pg_terminate_backend"): Promise<void> {
    const pid = (this.client as unknown as { processID: number }).processID;
    await (await this.sideClient()).query(`select ${how}($1)`, [pid]);
  }

  private sideClient(): Promise<pg.Client> {
    this.side ??= connectPostgres(this.config, this.database);
    return this.side;
  }

  /** The target's refusal of the statement, as its result; a timeout or a lost connection ends the call. */
  private outcome(error: unknown): { error: string } {
    if (!(error instanceof pg.DatabaseError) || error.severity === "FATAL" || error.severity === "PANIC") {
      throw failedPrecondition(`the connection to the target was lost: ${(error as Error).message}`, { cause: error });
    }
    if (error.code === QUERY_CANCELED && /statement timeout/.test(error.message)) throw timeoutError(this.options.timeoutMs ?? 0);
    return { error: error.message };
  }
}

/** The target's answer to a cancel of the running statement. */
function canceled(failure: unknown): boolean {
  const cause = failure instanceof DriverError ? failure.cause : undefined;
  return cause instanceof pg.DatabaseError && cause.code === QUERY_CANCELED;
}

/** The target refused the statement itself (an ERROR, not a cancel): the session is intact, its transaction to roll back. */
function refusedByTarget(failure: unknown): boolean {
  const cause = failure instanceof DriverError ? failure.cause : undefined;
  return cause instanceof pg.DatabaseError && cause.severity === "ERROR" && cause.code !== QUERY_CANCELED;
}

async function driver<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw new DriverError(error);
  }
}

function readBatch(cursor: Cursor, rows: number): Promise<{ rows: Row[]; fields: pg.FieldDef[] }> {
  return new Promise((resolve, reject) => {
    cursor.read(rows, (error, read, result) => (error ? reject(error) : resolve({ rows: read as Row[], fields: result.fields })));
  });
}
