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
export interface DryRunProblem {
  /** "error": the database refused it; "not-dry-runnable": checked without running (§10.3). */
  kind: "error" | "not-dry-runnable";
  message: string;
  /** 1-based line and column in the script, when known. */
  line: number;
  column: number;
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
  /** Runs (or checks) the script without changing anything (§10.3 DRY_RUN). */
  dryRun(database: string, script: string, options: { timeoutMs: number }): Promise<DryRunProblem[]>;
  /** Closes every connection the target opened. */
  close(): Promise<void>;
}
