// The PostgreSQL dry run (contract §10.3): the script's statements run one by
// one inside a transaction with a statement timeout that is always rolled
// back, DDL included. The first failure is reported with the server's message
// and position and ends the run. Statements that cannot run in a transaction
// are checked without running and reported as not dry-runnable; the script's
// own BEGIN/COMMIT/ROLLBACK are skipped (they would end the dry run's
// transaction).
import type pg from "pg";
import { splitStatements, type SqlStatement } from "../../sql/split.ts";
import { positionInStatement } from "../script-position.ts";
import type { DryRunProblem } from "../target.ts";
import { pgStatementKind } from "./pg-statement-kind.ts";
import { applyTimeouts, executeStatement, inRolledBackTransaction, type StatementFailure } from "./pg-transaction.ts";
import { checkWithoutRunning } from "./pg-unrunnable-check.ts";

export async function pgDryRun(client: pg.Client, script: string, timeoutMs: number): Promise<DryRunProblem[]> {
  const statements = splitStatements("POSTGRES", script);
  const problems: DryRunProblem[] = [];
  const report = (kind: DryRunProblem["kind"], statement: SqlStatement, failure: StatementFailure) =>
    problems.push({ kind, message: failure.message, ...positionInStatement(script, statement, failure.offset) });
  await inRolledBackTransaction(client, timeoutMs, async () => {
    for (const statement of statements) {
      const kind = await pgStatementKind(statement.text);
      if (kind.kind === "transaction-control") continue;
      if (kind.kind === "not-dry-runnable") {
        const failure = await checkWithoutRunning(client, kind.node);
        if (failure) report("error", statement, failure);
        else report("not-dry-runnable", statement, { message: `${kind.reason}: checked without running it`, offset: undefined });
        continue;
      }
      const outcome = await executeStatement(client, statement.text);
      if (!outcome.ok) {
        report("error", statement, outcome.failure);
        return;
      }
      if (kind.kind === "setting") await applyTimeouts(client, timeoutMs);
    }
  });
  return problems;
}
