// The read-only session on MySQL/MariaDB. Set up so the server reads a
// statement as the guard's parser did (no ANSI_QUOTES, no
// NO_BACKSLASH_ESCAPES), in UTC (TIMESTAMP values then name their instant),
// with the query timeout as the server's statement limit (MariaDB
// max_statement_time covers every statement, MySQL max_execution_time only
// SELECT: the watch's KILL QUERY backs both), sql_select_limit when the
// caller wants few rows, the schema as default database, then START
// TRANSACTION READ ONLY. Rows stream from the text protocol; once the sink
// has enough, the rest of the statement is stopped with KILL QUERY from a
// second connection (which also serves cancellation).
import type { Connection as CoreConnection, QueryError } from "mysql2";
import type { Connection } from "mysql2/promise";
import { connectMysql, type ConnectionConfig } from "../../inventory/index.ts";
import { failedPrecondition, invalidArgument, quoted } from "../../platform/index.ts";
import type { Row } from "../cells.ts";
import { columnOf, type Field, rowAdjuster } from "./my-cells.ts";
import type { Dialect, ReadSession, ReadSessionOptions, RowSink } from "./read-session.ts";
import { DriverError, StatementWatch, timeoutError } from "./statement-watch.ts";

const ER_QUERY_INTERRUPTED = 1317;
const ER_BAD_DB = 1049;
/** MySQL's max_execution_time and MariaDB's max_statement_time. */
const TIMEOUT_ERRORS = new Set([3024, 1969]);
const UNSAFE_MODES = new Set(["ANSI", "ANSI_QUOTES", "NO_BACKSLASH_ESCAPES"]);
const MAX_SCHEMA_LENGTH = 64;

export async function openMysqlSession(config: ConnectionConfig, database: string, options: ReadSessionOptions): Promise<ReadSession> {
  if (options.schema.length > MAX_SCHEMA_LENGTH) throw invalidArgument(`schema: ${quoted(options.schema)} is longer than ${MAX_SCHEMA_LENGTH} characters`);
  const connection = await connectMysql(config, database, { jsonStrings: true, bigNumberStrings: true });
  let dialect: Dialect;
  try {
    dialect = await setUp(connection, options);
  } catch (error) {
    connection.destroy();
    if ((error as QueryError).errno === ER_BAD_DB) throw invalidArgument(`schema: ${quoted(options.schema)} is not a database on the instance`);
    throw failedPrecondition(`cannot start a read-only session on database "${database}": ${(error as Error).message}`, { cause: error });
  }
  return new MyReadSession(dialect, config, database, connection, options);
}

/** Sets the session up and answers whether the server is MySQL or MariaDB. */
async function setUp(connection: Connection, options: ReadSessionOptions): Promise<Dialect> {
  const [rows] = await connection.query("select @@version as version, @@sql_mode as mode");
  const { version, mode } = (rows as { version: string; mode: string }[])[0]!;
  const dialect = /mariadb/i.test(version) ? "MARIADB" : "MYSQL";
  const settings: [string, unknown][] = [
    ["sql_mode", mode.split(",").filter((m) => !UNSAFE_MODES.has(m)).join(",")],
    ["time_zone", "+00:00"],
  ];
  if (options.timeoutMs !== undefined) {
    const ms = Math.max(1, Math.ceil(options.timeoutMs));
    settings.push(dialect === "MARIADB" ? ["max_statement_time", ms / 1000] : ["max_execution_time", ms]);
  }
  if (options.selectLimit !== undefined) settings.push(["sql_select_limit", options.selectLimit]);
  await connection.query(`set session ${settings.map(([name]) => `${name} = ?`).join(", ")}`, settings.map(([, value]) => value));
  if (options.schema) await connection.query(`use \`${options.schema.replaceAll("`", "``")}\``);
  await connection.query("start transaction read only");
  return dialect;
}

class MyReadSession implements ReadSession {
  readonly dialect: Dialect;
  private readonly config: ConnectionConfig;
  private readonly database: string;
  private readonly connection: Connection;
  private readonly options: ReadSessionOptions;
  private side: Promise<Connection> | undefined;

  constructor(dialect: Dialect, config: ConnectionConfig, database: string, connection: Connection, options: ReadSessionOptions) {
    this.dialect = dialect;
    this.config = config;
    this.database = database;
    this.connection = connection;
    this.options = options;
  }

  async read(statement: string, sink: RowSink, batchRows: number): Promise<{ error: string }> {
    const watch = new StatementWatch(this.options.signal, this.options.timeoutMs, () => this.killQuery());
    let failure: unknown;
    let stopping: Promise<void> | undefined;
    try {
      const core = (this.connection as unknown as { connection: CoreConnection }).connection;
      await new RowStream(core, sink, batchRows, () => (stopping ??= this.killQuery().catch(() => undefined))).run(statement);
    } catch (error) {
      failure = error;
    }
    await stopping;
    await watch.end();
    if (failure === undefined) return { error: "" };
    if (!(failure instanceof DriverError)) throw failure; // the sink's own
    if (watch.error) throw watch.error;
    const error = failure.cause as QueryError;
    if (error.fatal) throw failedPrecondition(`the connection to the target was lost: ${error.message}`, { cause: error });
    if (TIMEOUT_ERRORS.has(error.errno ?? 0)) throw timeoutError(this.options.timeoutMs ?? 0);
    return { error: error.message };
  }

  async close(): Promise<void> {
    await this.connection.query("rollback").catch(() => undefined);
    await this.connection.end().catch(() => this.connection.destroy());
    if (this.side) (await this.side.catch(() => undefined))?.destroy();
  }

  private async killQuery(): Promise<void> {
    this.side ??= connectMysql(this.config, this.database);
    await (await this.side).query(`kill query ${Number(this.connection.threadId)}`);
  }
}

/** One statement's rows, from the driver's events to the sink, batch by batch. */
class RowStream {
  private readonly connection: CoreConnection;
  private readonly sink: RowSink;
  private readonly batchRows: number;
  private readonly stop: () => void;
  private adjust: ((row: Row) => Row) | undefined;
  private batch: Row[] = [];
  private wanted = true;
  private held: Promise<void> = Promise.resolve();

  constructor(connection: CoreConnection, sink: RowSink, batchRows: number, stop: () => void) {
    this.connection = connection;
    this.sink = sink;
    this.batchRows = batchRows;
    this.stop = stop;
  }

  /** Resolves when the statement is done or stopped; rejects with the driver's error or the sink's. */
  run(statement: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const fail = (error: unknown) => {
        this.enough();
        reject(error);
      };
      this.connection
        .query({ sql: statement, rowsAsArray: true })
        .on("fields", (fields: unknown) => this.guarded(fail, () => this.begin(fields as Field[])))
        .on("result", (row: unknown) => this.guarded(fail, () => this.take(row as Row)))
        .on("error", (error: QueryError) => this.failed(error, resolve, reject))
        .on("end", () => this.guarded(fail, () => (this.deliver(), this.held.then(resolve, reject))));
    });
  }

  /** After KILL QUERY for rows no longer wanted, the interruption is the statement's normal end. */
  private failed(error: QueryError, resolve: () => void, reject: (error: unknown) => void): void {
    const stoppedByUs = !this.wanted && error.errno === ER_QUERY_INTERRUPTED;
    this.wanted = false;
    if (stoppedByUs) this.held.then(resolve, reject);
    else reject(new DriverError(error));
  }

  private begin(fields: Field[]): void {
    const columns = fields.map(columnOf);
    this.adjust = rowAdjuster(fields, columns);
    this.sink.columns(columns);
  }

  private take(row: Row): void {
    if (!this.wanted) return;
    this.batch.push(this.adjust ? this.adjust(row) : row);
    if (this.batch.length >= this.batchRows) this.deliver();
  }

  private deliver(): void {
    if (!this.wanted || this.batch.length === 0) return;
    const rows = this.batch;
    this.batch = [];
    const answer = this.sink.rows(rows);
    if (answer === false) return this.enough();
    if (answer === true) return;
    this.connection.pause();
    this.held = this.held.then(() => answer).then((more) => (more ? undefined : this.enough())).finally(() => this.connection.resume());
  }

  /** No more rows are wanted: the rest of the statement is stopped on the target. */
  private enough(): void {
    if (!this.wanted) return;
    this.wanted = false;
    this.stop();
  }

  private guarded(fail: (error: unknown) => void, work: () => void): void {
    try {
      work();
    } catch (error) {
      fail(error);
    }
  }
}
