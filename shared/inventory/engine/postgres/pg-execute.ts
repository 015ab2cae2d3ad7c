// Executing a change script on PostgreSQL (contract §12.4, §12.5). The whole
// script runs in one transaction unless one of its statements cannot run in
// a transaction block (pgExecutionKind: CREATE/DROP INDEX CONCURRENTLY,
// REINDEX CONCURRENTLY and REINDEX SCHEMA/SYSTEM/DATABASE, DETACH PARTITION
// CONCURRENTLY, VACUUM, CLUSTER without a table, CREATE/DROP DATABASE and
// TABLESPACE, ALTER DATABASE SET TABLESPACE, ALTER SYSTEM, subscriptions,
// prepared transactions, DISCARD ALL, and ALTER TYPE … ADD VALUE before
// PostgreSQL 12); then each statement runs on its own in autocommit, in order.
// A transactional run skips the script's own BEGIN/COMMIT/ROLLBACK (logged,
// not run: the run's transaction stands in for them) and records its
// transaction id with the session, so that a run whose worker died can be
// told committed or rolled back (§12.6). The lock and statement timeouts are
// the session's; a SET in the script overrides them. Stopping interrupts the
// running statement with pg_cancel_backend from a second connection.
import pg from "pg";
import { splitStatements } from "../split.ts";
import { runStatements, type LoopOutcome, type StatementResult } from "../script-run.ts";
import { ScriptStop } from "../script-stop.ts";
import type { ExecuteOutcome, ExecuteRequest, LostSession, ScriptSession, ScriptSessionOptions, TargetSession } from "../target.ts";
import type { PgConnector } from "./pg-connection.ts";
import { pgExecutionKind, type PgExecutionKind } from "./pg-statement-kind.ts";

type PgSession = Extract<TargetSession, { pid: number }>;

const QUERY_CANCELED = "57014";
const COUNTED_COMMANDS = new Set(["INSERT", "UPDATE", "DELETE", "MERGE", "COPY"]);
const LOST_SESSION_WAIT_MS = 10_000;

/**
 * A session for a change script: its connection carries the timeouts and
 * search path from its start (a SET in the script overrides them). The
 * outcome does not wait for the connection's end, which the target's close()
 * awaits: the run's end is recorded meanwhile.
 */
export async function pgOpenScriptSession(connector: PgConnector, database: string, options: ScriptSessionOptions): Promise<ScriptSession> {
  const client = await connector.connect(database, { lock_timeout: options.lockTimeoutMs, statement_timeout: options.statementTimeoutMs });
  if (options.schema !== undefined) await client.query("select set_config('search_path', quote_ident($1), false)", [options.schema]);
  return { execute: (request) => connector.use(database, client, () => runScript(connector, client, database, request), { endLater: true }) };
}

async function runScript(connector: PgConnector, client: pg.Client, database: string, request: ExecuteRequest): Promise<ExecuteOutcome> {
  const statements = splitStatements("POSTGRES", request.script);
  const serverVersion = once(async () => Number((await client.query("show server_version_num")).rows[0].server_version_num));
  const kinds = await Promise.all(statements.map((s, i) => (i < request.firstStatement ? undefined : pgExecutionKind(s.text, serverVersion))));
  const transactional = !kinds.some((k) => k?.kind === "outside-transaction");
  const session = await openSession(client, transactional);
  const stop = new ScriptStop(request.signal, transactional, () => cancelBackend(connector, database, session.pid));
  // A transactional script runs while its session is recorded: nothing of it is applied before the COMMIT, which waits for the record.
  const recorded = request.onSession(session, transactional);
  recorded.catch(() => undefined); // awaited below, before anything can be applied
  try {
    if (!transactional) await recorded;
    const run = async (statement: { text: string }, index: number) => (skipped(kinds[index], transactional) ? ran(0) : runStatement(client, statement.text, stop));
    const loop = await runStatements(request, statements, stop, run);
    await recorded;
    const outcome = transactional ? await endTransaction(client, loop, request.firstStatement, stop) : loop;
    return { ...outcome, transactional, statementCount: statements.length };
  } catch (error) {
    if (transactional) await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    stop.dispose();
  }
}

/**
 * Terminates the backend if it still runs the session (the same pid, still in
 * the run's transaction or started at the recorded time), then reads its
 * transaction's fate.
 */
export async function pgEndLostSession(connector: PgConnector, session: TargetSession): Promise<LostSession> {
  if (!("pid" in session)) throw new Error("not a PostgreSQL session");
  return connector.withClient(connector.defaultDatabase, async (client) => {
    // backend_xid is the 32-bit id; txid_current() adds the epoch above it.
    const same = "xid" in session ? ["backend_xid::text::bigint = $2::bigint % 4294967296", session.xid] : [`${BACKEND_START} = $2`, session.backendStart];
    const alive = async () =>
      (await client.query(`select exists (select 1 from pg_stat_activity where pid = $1 and ${same[0]}) as alive`, [session.pid, same[1]])).rows[0].alive === true;
    const deadline = performance.now() + LOST_SESSION_WAIT_MS;
    while (await alive()) {
      if (performance.now() > deadline) return { committed: undefined };
      await client.query("select pg_terminate_backend($1)", [session.pid]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!("xid" in session)) return { committed: undefined };
    const status = (await client.query("select txid_status($1::bigint) as status", [session.xid])).rows[0].status as string | null;
    return { committed: status === "committed" ? true : status === "aborted" ? false : undefined };
  });
}

// Microseconds since the epoch: stable whatever the sessions' time zones.
const BACKEND_START = "(extract(epoch from backend_start) * 1000000)::bigint::text";

/**
 * The session, named for the reconciler (§12.6). A transactional run begins
 * its transaction and has it assigned its id now, before anything of the
 * script runs, in one round trip: pid and transaction id name it. A
 * statement-by-statement run is named by pid and start time, from the
 * backend's own activity entry.
 */
async function openSession(client: pg.Client, transactional: boolean): Promise<PgSession> {
  if (transactional) {
    const [, begun] = (await client.query("BEGIN; select pg_backend_pid() as pid, txid_current()::text as xid")) as unknown as pg.QueryResult[];
    return { pid: Number(begun!.rows[0].pid), xid: String(begun!.rows[0].xid) };
  }
  const row = (await client.query(`select pid, ${BACKEND_START} as backend_start from pg_stat_get_activity(pg_backend_pid())`)).rows[0];
  return { pid: Number(row.pid), backendStart: String(row.backend_start) };
}

/** The value of `read`, read on the first call only. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= read());
}

function skipped(kind: PgExecutionKind | undefined, transactional: boolean): boolean {
  return transactional && kind?.kind === "transaction-control";
}

/** Commits a transactional run that ran every statement and was not stopped; else rolls it back, and then nothing was applied. */
async function endTransaction(client: pg.Client, loop: LoopOutcome, firstStatement: number, stop: ScriptStop): Promise<LoopOutcome> {
  if (loop.state === "done" && !stop.requested) {
    const commit = await runStatement(client, "COMMIT", stop);
    if (commit.ok) return loop;
    return { state: commit.stopped ? "canceled" : "failed", error: commit.stopped ? "" : commit.message, nextStatement: firstStatement, affectedRows: 0 };
  }
  await client.query("ROLLBACK").catch(() => undefined);
  return { ...loop, state: loop.state === "done" ? "canceled" : loop.state, nextStatement: firstStatement, affectedRows: 0 };
}

/** Runs one statement; its rows stream past unkept. A failure (the server's message, or a lost connection) is a result. */
function runStatement(client: pg.Client, text: string, stop: ScriptStop): Promise<StatementResult> {
  return new Promise((resolve) => {
    const query = new pg.Query(text);
    query.on("row", () => undefined);
    query.on("end", (results: pg.QueryResult | pg.QueryResult[]) => resolve(ran(countedRows(results))));
    query.on("error", (error: Error) => resolve(failed(error, stop)));
    client.query(query);
  });
}

function ran(rows: number): StatementResult {
  return { ok: true, rows };
}

function failed(error: Error, stop: ScriptStop): StatementResult {
  if (!(error instanceof pg.DatabaseError) || error.severity === "FATAL" || error.severity === "PANIC") {
    return { ok: false, message: `the connection to the target was lost: ${error.message}`, stopped: false };
  }
  return { ok: false, message: error.message, stopped: stop.interrupted && error.code === QUERY_CANCELED && /user request/.test(error.message) };
}

function countedRows(results: pg.QueryResult | pg.QueryResult[]): number {
  const list = Array.isArray(results) ? results : [results];
  return list.reduce((sum, r) => sum + (COUNTED_COMMANDS.has(r.command) ? (r.rowCount ?? 0) : 0), 0);
}

async function cancelBackend(connector: PgConnector, database: string, pid: number): Promise<void> {
  await connector.withClient(database, (client) => client.query("select pg_cancel_backend($1)", [pid]));
}
