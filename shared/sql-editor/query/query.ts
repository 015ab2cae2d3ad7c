// Query (contract §14.1–§14.4): the statements of a script, each a read
// (refused whole otherwise, before anything reaches the target), run one
// after the other in one read-only session on the database, each answering
// its columns and at most `limit` rows within the call's sql_result_size. A
// statement the target refuses ends the script: its message is its result and
// later statements are not run.
import type { CommonQueryMethods } from "slonik";
import { type AuditAtEnd, readWorkspaceProfile, type SettingReader } from "../../governance/index.ts";
import { invalidArgument, type SecretBox } from "../../platform/index.ts";
import type { Column, Row } from "../cells.ts";
import type { ReadStatement } from "../guard/statement-tree.ts";
import { historyError, keepInHistory } from "../history/history-entry.ts";
import { type MaskingReason, type ResultMasker, shownError } from "../masking/result-masking.ts";
import type { ReadConnections } from "../session/read-connections.ts";
import { type ReadSession, withReadSession } from "../session/read-session.ts";
import { type ReadRequest, readTarget } from "./read-target.ts";
import { KeptRows, ResultBudget } from "./result-budget.ts";

export const DEFAULT_LIMIT = 1000;
export const MAX_LIMIT = 100_000;
/** Rows read from the target at a time, at most. */
const BATCH_ROWS = 4096;

export interface QueryDeps {
  /** The store, for the database and its data sources (no transaction is held while the target works). */
  db: CommonQueryMethods;
  settings: SettingReader;
  /** Opens data-source passwords. */
  secrets: SecretBox;
  /** The process's PostgreSQL connections kept between reads (0123). */
  connections: ReadConnections;
}

export interface QueryRequest extends ReadRequest {
  /** Rows kept per statement; 0 = DEFAULT_LIMIT. */
  limit: number;
  /** The call's: aborting it cancels the running statement. */
  signal: AbortSignal;
}

export interface StatementResult {
  statement: string;
  columns: Column[];
  rows: Row[];
  /** Rows were dropped, by the limit or by sql_result_size. */
  truncated: boolean;
  latencyMs: number;
  /** The target's message when it refused the statement (withheld when it reads hidden columns); "" otherwise. */
  error: string;
  /** Per column, why its values were masked (an empty reason: shown as is); [] when nothing is hidden from the caller. */
  masked: MaskingReason[];
}

/**
 * Runs the query, stating its audit facts: the record's detail carries the
 * database, rows returned, whether any were dropped and the duration; a query
 * that reached its target is kept in the query history (written with the
 * record when the call ends), a failed one too.
 */
export async function queryDatabase(deps: QueryDeps, audit: AuditAtEnd, request: QueryRequest): Promise<StatementResult[]> {
  const limit = queryLimit(request.limit);
  const { ref, config, statements, masker } = await readTarget(deps, request);
  const profile = await readWorkspaceProfile(deps.settings);
  const budget = new ResultBudget(profile.sqlResultSizeBytes);
  const options = { schema: request.schema, timeoutMs: profile.queryTimeoutMs, signal: request.signal, selectLimit: limit + 1 };
  const started = performance.now();
  const results: StatementResult[] = [];
  try {
    await withReadSession({ connections: deps.connections, engine: config.engine, config, database: ref.name }, options, async (session) => {
      for (const statement of statements) {
        results.push(await readResult(session, statement, limit, budget, masker));
        if (results.at(-1)!.error) break;
      }
    });
  } catch (error) {
    remember(audit, request, results, performance.now() - started, historyError(error));
    throw error;
  }
  remember(audit, request, results, performance.now() - started, results.find((r) => r.error)?.error ?? "");
  return results;
}

function remember(audit: AuditAtEnd, request: QueryRequest, results: StatementResult[], durationMs: number, error: string): void {
  const rowCount = results.reduce((sum, r) => sum + r.rows.length, 0);
  const truncated = results.some((r) => r.truncated);
  audit.detail = { database: request.name, rowCount, truncated, durationMs: Math.round(durationMs) };
  keepInHistory(audit, "QUERY", request, () => ({ durationMs, rowCount, error }));
}

/** The limit asked for: 0 is the default; beyond MAX_LIMIT or negative is refused. */
export function queryLimit(limit: number): number {
  if (limit === 0) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT) {
    throw invalidArgument(`limit must be between 1 and ${MAX_LIMIT} rows (0 for the default ${DEFAULT_LIMIT}), got ${limit}`);
  }
  return limit;
}

/** A statement's result, its hidden values masked. */
async function readResult(session: ReadSession, { text }: ReadStatement, limit: number, budget: ResultBudget, masker: ResultMasker | undefined): Promise<StatementResult> {
  const started = performance.now();
  const sink = new KeptRows(limit, budget);
  const { error } = await session.read(text, sink, Math.min(limit + 1, BATCH_ROWS));
  const result = { statement: text, columns: sink.described, rows: sink.kept, truncated: sink.truncated, latencyMs: performance.now() - started };
  const masked = masker?.mask(result) ?? [];
  return { ...result, error: shownError(masker, text, error), masked };
}
