// The statement loop both engines share when executing a change script
// (contract §12.4): from the first statement to run, each statement runs and
// is logged before the next starts; the loop ends at the first failure, or at
// a statement boundary once the run is stopped (§12.5).
import type { SqlStatement } from "./split.ts";
import type { ScriptStop } from "./script-stop.ts";
import type { ExecuteOutcome, ExecuteRequest } from "./target.ts";

/** What one statement did; `stopped`: it failed because the run's stop interrupted it. */
export type StatementResult = { ok: true; rows: number } | { ok: false; message: string; stopped: boolean };

export type LoopOutcome = Pick<ExecuteOutcome, "state" | "error" | "nextStatement" | "failedStatement" | "affectedRows">;

export async function runStatements(
  request: ExecuteRequest,
  statements: readonly SqlStatement[],
  stop: ScriptStop,
  run: (statement: SqlStatement, index: number) => Promise<StatementResult>,
): Promise<LoopOutcome> {
  let affectedRows = 0;
  for (let index = request.firstStatement; index < statements.length; index++) {
    if (stop.requested) return { state: "canceled", error: "", nextStatement: index, affectedRows };
    const statement = statements[index]!;
    const time = new Date();
    const started = performance.now();
    const result = await run(statement, index);
    await stop.settled();
    const rowsAffected = result.ok ? result.rows : 0;
    await request.onStatement({ index, time, statement: statement.text, rowsAffected, durationMs: performance.now() - started, error: result.ok ? "" : result.message });
    if (result.ok) {
      affectedRows += rowsAffected;
      continue;
    }
    if (result.stopped) return { state: "canceled", error: "", nextStatement: index, affectedRows };
    return { state: "failed", error: result.message, nextStatement: index, failedStatement: index, affectedRows };
  }
  return { state: "done", error: "", nextStatement: statements.length, affectedRows };
}
