// Running an Execute script on its target with the task runs' engine
// (contract §12.4): statement by statement, each logged with the rows it
// changed and its duration, up to the first failure. On PostgreSQL the script
// runs in one transaction unless a statement forbids it, exactly as a task
// run would run it, so a failure rolls back what came before. query_timeout
// is the server-side statement timeout and also bounds the whole script;
// when it passes, or the client goes away, the running statement is
// interrupted and the call ends with deadline_exceeded or canceled.
import { type ConnectionConfig, type ExecuteOutcome, type StatementLog, withTarget } from "../../inventory/index.ts";
import { canceled, deadlineExceeded, type DomainError, formatDuration } from "../../platform/index.ts";

/** One statement as Execute answers it. */
export interface ExecutedStatement {
  statement: string;
  rowsAffected: number;
  durationMs: number;
  /** The target's message when it failed; "" otherwise. */
  error: string;
}

export interface ScriptRun {
  statements: ExecutedStatement[];
  /** Rows the applied statements changed (0 when a transaction was rolled back). */
  rowsAffected: number;
}

export interface ScriptOptions {
  database: string;
  script: string;
  /** PostgreSQL's search path, MySQL's default database; undefined keeps the connection's. */
  schema: string | undefined;
  /** query_timeout; undefined: unlimited. */
  timeoutMs: number | undefined;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

export async function runScriptOnTarget(config: ConnectionConfig, options: ScriptOptions): Promise<ScriptRun> {
  const deadline = new AbortController();
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => deadline.abort(), options.timeoutMs);
  const started = performance.now();
  const entries: StatementLog[] = [];
  try {
    const outcome = await withTarget(config, async (target) => {
      const session = await target.openScriptSession(options.database, {
        lockTimeoutMs: 0,
        statementTimeoutMs: options.timeoutMs ?? 0,
        schema: options.schema,
      });
      return session.execute({
        script: options.script,
        firstStatement: 0,
        onSession: async () => undefined,
        onStatement: async (entry) => void entries.push(entry),
        signal: AbortSignal.any([options.signal, deadline.signal]),
      });
    });
    const timedOut = options.timeoutMs !== undefined && (deadline.signal.aborted || performance.now() - started >= options.timeoutMs);
    // A MySQL statement may swallow the interruption (SLEEP, BENCHMARK answer as if done): only a commit ends a timed-out script well.
    if (timedOut && (outcome.state !== "done" || !outcome.transactional)) throw timeoutError(outcome, entries.length, options.timeoutMs!);
    if (outcome.state === "canceled") throw canceled(`the call was cancelled before the script ended; ${applied(outcome)}`);
    return { statements: executedStatements(entries, outcome), rowsAffected: outcome.affectedRows };
  } finally {
    clearTimeout(timer);
  }
}

function timeoutError(outcome: ExecuteOutcome, started: number, timeoutMs: number): DomainError {
  const ran = `${started} of its ${outcome.statementCount} statement(s) had started`;
  return deadlineExceeded(`the script ran longer than query_timeout (${formatDuration(timeoutMs)}) and was cancelled (${ran}); ${applied(outcome)}`);
}

/** What a script cut short left applied: before the statement it stopped at (its last, when the engine saw it end). */
function applied(outcome: ExecuteOutcome): string {
  if (outcome.transactional) return "nothing of it was applied (its transaction was rolled back)";
  const before = outcome.state === "done" ? outcome.statementCount - 1 : outcome.nextStatement;
  return `the ${before} statement(s) before it were applied`;
}

/**
 * The statements run, in order; a failed COMMIT of a transactional run is
 * its last entry, and the failure of a transactional run says that it
 * rolled back what came before.
 */
function executedStatements(entries: readonly StatementLog[], outcome: ExecuteOutcome): ExecutedStatement[] {
  const statements = entries.map(({ statement, rowsAffected, durationMs, error }) => ({ statement, rowsAffected, durationMs, error }));
  if (outcome.state !== "failed") return statements;
  if (outcome.failedStatement === undefined) statements.push({ statement: "COMMIT", rowsAffected: 0, durationMs: 0, error: outcome.error });
  const last = statements.at(-1);
  if (outcome.transactional && last) last.error += " (the script ran in one transaction, which was rolled back: none of its statements was applied)";
  return statements;
}
