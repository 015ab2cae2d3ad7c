// The read-only session on PostgreSQL. Set up in one round trip: text
// settings the parser and the cells rely on (standard_conforming_strings, so
// a quote means to the server what it meant to the guard's parser; hex
// bytea; ISO dates), the search path, BEGIN READ ONLY and the statement
// timeout. Each statement runs through a cursor (the extended protocol,
// which also refuses a text holding two statements) and is read in batches;
// closing the cursor stops it. A second connection, opened when first
// needed, cancels a running statement (pg_cancel_backend) and looks up type
// names the session has not met.
import pg from "pg";
import Cursor from "pg-cursor";
import { connectPostgres, type ConnectionConfig } from "../../inventory/index.ts";
import { failedPrecondition, invalidArgument, quoted } from "../../platform/index.ts";
import type { Row } from "../cells.ts";
import { CELL_TYPES, readTypeNames, TypeNames } from "./pg-cells.ts";
import type { ReadSession, ReadSessionOptions, RowSink } from "./read-session.ts";
import { DriverError, StatementWatch, timeoutError } from "./statement-watch.ts";

const QUERY_CANCELED = "57014";
const MAX_IDENTIFIER_BYTES = 63;

export async function openPostgresSession(config: ConnectionConfig, database: string, options: ReadSessionOptions): Promise<ReadSession> {
  const setup = setupText(options);
  const client = await connectPostgres(config, database);
  try {
    await client.query(setup);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw failedPrecondition(`cannot start a read-only session on database "${database}": ${(error as Error).message}`, { cause: error });
  }
  return new PgReadSession(config, database, client, options);
}

function setupText(options: ReadSessionOptions): string {
  const lines = ["set standard_conforming_strings = on", "set bytea_output = hex", "set datestyle = iso", "set intervalstyle = postgres"];
  if (options.schema) lines.push(`set search_path = ${identifier(options.schema)}`);
  lines.push("begin read only");
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
  private readonly client: pg.Client;
  private readonly options: ReadSessionOptions;
  private readonly names = new TypeNames();
  private side: Promise<pg.Client> | undefined;

  constructor(config: ConnectionConfig, database: string, client: pg.Client, options: ReadSessionOptions) {
    this.config = config;
    this.database = database;
    this.client = client;
    this.options = options;
  }

  async read(statement: string, sink: RowSink, batchRows: number): Promise<{ error: string }> {
    const watch = new StatementWatch(this.options.signal, this.options.timeoutMs, () => this.cancelRunning());
    const cursor = this.client.query(new Cursor(statement, undefined, { rowMode: "array", types: CELL_TYPES }));
    let failure: unknown;
    try {
      await this.stream(cursor, sink, batchRows);
    } catch (error) {
      failure = error;
    }
    await watch.end();
    if (failure === undefined) return { error: "" };
    if (!(failure instanceof DriverError)) throw failure; // the sink's own
    if (watch.error) throw watch.error;
    return this.outcome(failure.cause);
  }

  async close(): Promise<void> {
    await this.client.query("rollback").catch(() => undefined);
    await this.client.end().catch(() => undefined);
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

  private async cancelRunning(): Promise<void> {
    const pid = (this.client as unknown as { processID: number }).processID;
    await (await this.sideClient()).query("select pg_cancel_backend($1)", [pid]);
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
