// Execute (contract §14.1, §14.3, §18.2): the SQL Editor's only write path.
// Allowed while WORKSPACE_PROFILE.database_change_mode is EDITOR and the
// emergency pause is off; the script runs on the database's ADMIN data
// source. Every run that reaches for its target is kept in the query history
// and in the call's audit detail (rows affected, duration), both written with
// the call's record when it ends, also when the run ends in an error (a
// timeout, a cancelled call, an unreachable target).
import type { CommonQueryMethods } from "slonik";
import type { AuditAtEnd, SettingReader } from "../../governance/index.ts";
import { readWorkspaceProfile, refuseDuringEmergencyPause } from "../../governance/index.ts";
import { databaseConnection, databaseName, parseDatabaseName } from "../../inventory/index.ts";
import { failedPrecondition, invalidArgument, type SecretBox } from "../../platform/index.ts";
import { historyError, keepInHistory } from "../history/history-entry.ts";
import { type ExecutedStatement, runScriptOnTarget, type ScriptRun } from "./script-on-target.ts";

export type { ExecutedStatement } from "./script-on-target.ts";

export interface ExecuteDeps {
  /** The store, for the database and its data sources (no transaction is held while the target works). */
  db: CommonQueryMethods;
  settings: SettingReader;
  /** Opens data-source passwords. */
  secrets: SecretBox;
}

export interface ExecuteScriptRequest {
  /** instances/<instance>/databases/<database> */
  name: string;
  statement: string;
  /** PostgreSQL's search path, MySQL's default database; "" keeps the connection's. */
  schema: string;
  /** users/<login_id> */
  caller: string;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

const PIPELINE_REFUSAL =
  "the SQL Editor cannot write while WORKSPACE_PROFILE.database_change_mode is PIPELINE: changes go through issues; set it to EDITOR to allow Execute";

export async function executeScript(deps: ExecuteDeps, audit: AuditAtEnd, request: ExecuteScriptRequest): Promise<ExecutedStatement[]> {
  const ref = parseDatabaseName(request.name, "name");
  if (request.statement.trim() === "") throw invalidArgument("statement is required");
  const profile = await readWorkspaceProfile(deps.settings);
  if (profile.databaseChangeMode !== "EDITOR") throw failedPrecondition(PIPELINE_REFUSAL);
  await refuseDuringEmergencyPause(deps.settings);
  const config = await databaseConnection(deps.db, deps.secrets, ref);
  const remember = (facts: RunFacts) => rememberRun(audit, { ...request, name: databaseName(ref) }, facts);
  const started = performance.now();
  let run: ScriptRun;
  try {
    run = await runScriptOnTarget(config, {
      database: ref.name,
      script: request.statement,
      schema: request.schema || undefined,
      timeoutMs: profile.queryTimeoutMs,
      signal: request.signal,
    });
  } catch (error) {
    remember({ rowsAffected: 0, durationMs: performance.now() - started, error: historyError(error) });
    throw error;
  }
  const failed = run.statements.find((s) => s.error !== "");
  remember({ rowsAffected: run.rowsAffected, durationMs: performance.now() - started, error: failed?.error ?? "" });
  return run.statements;
}

interface RunFacts {
  rowsAffected: number;
  durationMs: number;
  error: string;
}

/** The run's audit detail and its query history entry. */
function rememberRun(audit: AuditAtEnd, request: ExecuteScriptRequest, facts: RunFacts): void {
  audit.detail = { database: request.name, rowsAffected: facts.rowsAffected, durationMs: Math.round(facts.durationMs) };
  keepInHistory(audit, "EXECUTE", request, () => ({ durationMs: facts.durationMs, rowCount: facts.rowsAffected, error: facts.error }));
}
