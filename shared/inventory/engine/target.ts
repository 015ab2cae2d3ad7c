// A connection to a database server the platform manages (an instance's data
// source, contract §9.3), and what the platform does through it. One
// implementation per engine; callers pick one with openTarget (target-open.ts).
import type { DatabaseMetadata } from "./metadata.ts";

export type Engine = "POSTGRES" | "MYSQL";

export type SslMode = "DISABLE" | "REQUIRE" | "VERIFY_FULL";

/** Where and how to connect; the password is already opened (plain text). */
export interface ConnectionConfig {
  engine: Engine;
  host: string;
  port: number;
  username: string;
  password: string;
  /** The database to connect to; "" = the engine's default (postgres / none). */
  database: string;
  sslMode: SslMode;
  /** PEM CA certificate for VERIFY_FULL (and REQUIRE when given). */
  sslCa: string;
  /** Extra driver options, e.g. {"connectTimeout": "5000"}. */
  extraOptions: Record<string, string>;
}

/** How long explainRows lets one statement take unless told otherwise. */
export const DEFAULT_EXPLAIN_TIMEOUT_MS = 10_000;

/** What EXPLAIN says a DML statement of the script touches, or why it could not be explained. */
export interface RowEstimate {
  /** The statement's index in the script (0-based, as splitStatements numbers them). */
  index: number;
  /** Estimated affected rows; absent when EXPLAIN failed. */
  rows?: number;
  /** The database's message when EXPLAIN failed (e.g. a missing column). */
  error?: string;
}

/** One statement that failed (or could not be tried) in a dry run. */
export interface DryRunOptions {
  timeoutMs: number;
  /** Statements applied before the script in the same dry run; "" for none. */
  preamble?: string;
}

export interface DryRunProblem {
  /** "error": the database refused it; "not-dry-runnable": checked without running (§10.3). */
  kind: "error" | "not-dry-runnable";
  message: string;
  /** 1-based line and column in the script, when known. */
  line: number;
  column: number;
}

/** One statement's entry in a task run's log (contract §12.1, §12.4). */
export interface StatementLog {
  /** The statement's index in the script (0-based, as splitStatements numbers them). */
  index: number;
  /** When it started. */
  time: Date;
  statement: string;
  rowsAffected: number;
  durationMs: number;
  /** The database's message when it failed; "" otherwise. */
  error: string;
}

/**
 * The server session a script runs in, as stored on the task run
 * (task_run.backend): PostgreSQL names the backend of a transactional run by
 * pid and transaction id (the backend with that pid still in that
 * transaction is the run's), of a statement-by-statement run by pid and
 * start time (a pid is reused); MySQL by connection thread id.
 */
export type TargetSession = { pid: number; xid: string } | { pid: number; backendStart: string } | { threadId: number };

/**
 * How a script stops early when its signal is aborted (the abort reason):
 * "cancel" interrupts the running statement on the server (§12.5);
 * "suspend" (emergency pause, §12.7) lets a non-transactional script finish
 * its running statement and stop at the boundary; a transactional script is
 * interrupted and rolled back either way.
 */
export type StopMode = "cancel" | "suspend";

/** The limits a change script's statements run under (a SET in the script overrides them). */
export interface ScriptTimeouts {
  /** Lock wait limit per statement in ms; 0 = none. */
  lockTimeoutMs: number;
  /** Limit per statement in ms; 0 = none. */
  statementTimeoutMs: number;
}

/** How a change script's session is set up. */
export interface ScriptSessionOptions extends ScriptTimeouts {
  /** The SQL Editor's `schema`: PostgreSQL's search path, MySQL's default database; undefined keeps the connection's. */
  schema?: string;
}

export interface ExecuteRequest {
  script: string;
  /** Index of the first statement to run (a continuation skips what an earlier run applied). */
  firstStatement: number;
  /**
   * Called once the session is open, before any statement runs (the run
   * records its session). Nothing of the script is applied before it has
   * returned: a statement-by-statement script waits for it before its first
   * statement; a transactional one runs its statements meanwhile and waits
   * before its COMMIT. If it fails, the script stops (a transaction is
   * rolled back) and execute throws its error.
   */
  onSession(session: TargetSession, transactional: boolean): Promise<void>;
  /** Called after each statement, in order, before the next one starts. */
  onStatement(entry: StatementLog): Promise<void>;
  /** Aborting it (with a StopMode as reason; "cancel" if none) stops the script. */
  signal: AbortSignal;
}

/**
 * A connection to one database, opened for a change script before the
 * script is known to run (a task run opens it while the run is claimed). It
 * runs one script and closes after it; one that never runs closes with its
 * target.
 */
export interface ScriptSession {
  /**
   * Runs a change script (contract §12.4): PostgreSQL in one transaction
   * unless a statement forbids it, then statement by statement; MySQL
   * statement by statement. Statement failures, cancellation and a lost
   * target connection are outcomes, not exceptions.
   */
  execute(request: ExecuteRequest): Promise<ExecuteOutcome>;
}

export interface ExecuteOutcome {
  /** The script ran in one transaction (PostgreSQL without statements that forbid one). */
  transactional: boolean;
  state: "done" | "failed" | "canceled";
  /** The database's message (or the connection problem) when failed; "" otherwise. */
  error: string;
  /** Index of the first statement not applied: the statement count when done; `firstStatement` when a transaction was rolled back. */
  nextStatement: number;
  /** When failed: the index of the statement that failed (undefined when the COMMIT of a transactional run did). */
  failedStatement?: number;
  /** Statements in the script. */
  statementCount: number;
  /** Rows the applied statements changed. */
  affectedRows: number;
}

/** What became of a session whose client went away (§12.6). */
export interface LostSession {
  /** PostgreSQL transactional session: whether its transaction committed; undefined when unknown or not transactional. */
  committed: boolean | undefined;
}

export interface Target {
  readonly engine: Engine;
  /** Connects and answers the server's version; a clear connection error otherwise. */
  version(): Promise<string>;
  /** Database names (PostgreSQL: non-template ones the user may connect to; MySQL: schemas except the system ones), sorted. */
  listDatabases(): Promise<string[]>;
  metadata(database: string): Promise<DatabaseMetadata>;
  /** Deterministic DDL text of the database: the same schema gives byte-identical output. */
  schemaDdl(database: string): Promise<string>;
  /**
   * EXPLAIN estimates of the script's DML statements (DDL and other statements: no entry).
   * `timeoutMs` bounds each statement the estimate needs (default DEFAULT_EXPLAIN_TIMEOUT_MS).
   */
  explainRows(database: string, script: string, options?: { timeoutMs?: number }): Promise<RowEstimate[]>;
  /**
   * Runs (or checks) the script without changing anything (§10.3 DRY_RUN),
   * as if `preamble` (earlier changes of the same plan on this database) had
   * been applied first; the preamble's own problems are not reported.
   */
  dryRun(database: string, script: string, options: DryRunOptions): Promise<DryRunProblem[]>;
  /** Opens a session on the database for a change script, under the timeouts; a connection problem is a clear error here. */
  openScriptSession(database: string, options: ScriptSessionOptions): Promise<ScriptSession>;
  /** Ends a session whose client is gone (terminates it if it still runs) and answers what became of its transaction. */
  endLostSession(session: TargetSession): Promise<LostSession>;
  /** Closes every connection the target opened. */
  close(): Promise<void>;
}
