// Executing a change script on MySQL/MariaDB (contract §12.4, §12.5):
// statement by statement on one connection (DDL commits implicitly, so there
// is no transaction around the script), each logged with the rows it changed
// (DDL: none). The lock timeout bounds row and metadata lock waits
// (innodb_lock_wait_timeout, lock_wait_timeout, whole seconds); the statement
// timeout is a watchdog that sends KILL QUERY, as MySQL's own limit
// (max_execution_time) covers SELECT only. Stopping sends KILL QUERY from a
// second connection. Rows of a SELECT stream past unkept.
import type { Connection as CoreConnection } from "mysql2";
import type { Connection } from "mysql2/promise";
import { splitStatements, type SqlStatement } from "../split.ts";
import { runStatements, type StatementResult } from "../script-run.ts";
import { ScriptStop } from "../script-stop.ts";
import { invalidArgument, quoted } from "../../../platform/index.ts";
import type { ExecuteOutcome, ExecuteRequest, LostSession, ScriptSession, ScriptSessionOptions, ScriptTimeouts, TargetSession } from "../target.ts";
import type { MyConnector } from "./my-connection.ts";
import { myStatementKind } from "./my-statement-kind.ts";

/** "Query execution was interrupted": what KILL QUERY makes the statement answer. */
const ER_QUERY_INTERRUPTED = 1317;
const LOST_SESSION_WAIT_MS = 10_000;

export async function mysqlOpenScriptSession(connector: MyConnector, database: string, options: ScriptSessionOptions): Promise<ScriptSession> {
  const connection = await connector.connect(database);
  if (options.schema !== undefined) await useSchema(connection, options.schema);
  return { execute: (request) => connector.use(database, connection, () => runScript(connector, connection, database, options, request)) };
}

/** Makes `schema` the connection's default database; an unknown one is the caller's mistake (invalid_argument). */
async function useSchema(connection: Connection, schema: string): Promise<void> {
  try {
    await connection.query("USE ??", [schema]);
  } catch (error) {
    connection.destroy();
    throw invalidArgument(`schema ${quoted(schema)}: ${(error as { sqlMessage?: string }).sqlMessage ?? String(error)}`);
  }
}

async function runScript(connector: MyConnector, connection: Connection, database: string, timeouts: ScriptTimeouts, request: ExecuteRequest): Promise<ExecuteOutcome> {
  const statements = splitStatements("MYSQL", request.script);
  if (timeouts.lockTimeoutMs > 0) {
    const seconds = Math.max(1, Math.ceil(timeouts.lockTimeoutMs / 1000));
    await connection.query("SET SESSION innodb_lock_wait_timeout = ?, SESSION lock_wait_timeout = ?", [seconds, seconds]);
  }
  const [rows] = await connection.query("select connection_id() as id");
  const threadId = Number((rows as { id: number }[])[0]!.id);
  const killQuery = () => connector.withConnection(database, async (other) => void (await other.query(`KILL QUERY ${threadId}`)));
  const stop = new ScriptStop(request.signal, false, killQuery);
  try {
    await request.onSession({ threadId }, false);
    const loop = await runStatements(request, statements, stop, (statement) => runWithTimeout(connection, statement, stop, timeouts.statementTimeoutMs, killQuery));
    return { ...loop, transactional: false, statementCount: statements.length };
  } finally {
    stop.dispose();
  }
}

/** Kills the connection if it still runs (the same user's thread), and waits until it is gone. */
export async function mysqlEndLostSession(connector: MyConnector, session: TargetSession): Promise<LostSession> {
  if (!("threadId" in session)) throw new Error("not a MySQL session");
  return connector.withConnection("", async (connection) => {
    const alive = async () => {
      const [rows] = await connection.query("select 1 from information_schema.processlist where id = ? and user = ?", [session.threadId, connector.config.username]);
      return (rows as unknown[]).length > 0;
    };
    const deadline = performance.now() + LOST_SESSION_WAIT_MS;
    while (await alive()) {
      if (performance.now() > deadline) break;
      await connection.query(`KILL CONNECTION ${session.threadId}`).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { committed: undefined };
  });
}

/** Runs one statement; past `timeoutMs` (0 = none) a KILL QUERY stops it and it fails with a timeout message. */
async function runWithTimeout(connection: Connection, statement: SqlStatement, stop: ScriptStop, timeoutMs: number, killQuery: () => Promise<void>): Promise<StatementResult> {
  let killing: Promise<void> | undefined;
  const watchdog = timeoutMs > 0 ? setTimeout(() => (killing = killQuery().catch(() => undefined)), timeoutMs) : undefined;
  try {
    const result = await runStatement(connection, statement.text, myStatementKind(statement.text) !== "ddl");
    if (result.ok || !killing || result.errno !== ER_QUERY_INTERRUPTED) return toResult(result, stop);
    return { ok: false, message: `statement timeout: the statement ran longer than ${timeoutMs} ms and was interrupted`, stopped: false };
  } finally {
    clearTimeout(watchdog);
    await killing; // a KILL QUERY still on its way must not reach the next statement
  }
}

type Ran = { ok: true; rows: number } | { ok: false; message: string; errno: number | undefined };

function runStatement(connection: Connection, text: string, countRows: boolean): Promise<Ran> {
  return new Promise((resolve) => {
    let rows = 0;
    const query = core(connection).query(text);
    query.on("result", (result: unknown) => {
      const changed = (result as { affectedRows?: unknown } | null)?.affectedRows;
      if (countRows && result?.constructor?.name === "ResultSetHeader" && typeof changed === "number") rows += changed;
    });
    query.on("error", (error: Error & { errno?: number; sqlMessage?: string; fatal?: boolean }) => {
      const lost = error.fatal === true || typeof error.errno !== "number";
      resolve({ ok: false, message: lost ? `the connection to the target was lost: ${error.message}` : (error.sqlMessage ?? error.message), errno: lost ? undefined : error.errno });
    });
    query.on("end", () => resolve({ ok: true, rows }));
  });
}

/** The callback connection under the promise wrapper: its query streams rows as events (the wrapper's keeps them all). */
function core(connection: Connection): CoreConnection {
  return (connection as unknown as { connection: CoreConnection }).connection;
}

function toResult(ran: Ran, stop: ScriptStop): StatementResult {
  if (ran.ok) return ran;
  return { ok: false, message: ran.message, stopped: stop.interrupted && ran.errno === ER_QUERY_INTERRUPTED };
}
