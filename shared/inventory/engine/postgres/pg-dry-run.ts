// The PostgreSQL dry run (contract §10.3): the script's statements run one by
// one inside a transaction with a statement timeout that is always rolled
// back, DDL included. The first failure is reported with the server's message
// and position and ends the run. Statements that cannot run in a transaction
// are checked without running and reported as not dry-runnable; the script's
// own BEGIN/COMMIT/ROLLBACK are skipped (they would end the dry run's
// transaction). A preamble (earlier changes of the plan on this database)
// runs first, each statement under a savepoint so that one that fails is
// undone and the rest still apply; its problems are its own spec's to report.
import type pg from "pg";
import { splitStatements, type SqlStatement } from "../split.ts";
import { positionInStatement } from "../script-position.ts";
import type { DryRunProblem } from "../target.ts";
import { pgStatementKind } from "./pg-statement-kind.ts";
import { applyTimeouts, executeStatement, inRolledBackTransaction, type StatementFailure } from "./pg-transaction.ts";
import { checkWithoutRunning } from "./pg-unrunnable-check.ts";

export async function pgDryRun(client: pg.Client, script: string, timeoutMs: number, preamble = ""): Promise<DryRunProblem[]> {
  const statements = splitStatements("POSTGRES", script);
  const problems: DryRunProblem[] = [];
  const report = (kind: DryRunProblem["kind"], statement: SqlStatement, failure: StatementFailure) =>
    problems.push({ kind, message: failure.message, ...positionInStatement(script, statement, failure.offset) });
  await inRolledBackTransaction(client, timeoutMs, async () => {
    await applyPreamble(client, preamble, timeoutMs);
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

async function applyPreamble(client: pg.Client, preamble: string, timeoutMs: number): Promise<void> {
  for (const statement of splitStatements("POSTGRES", preamble)) {
    const kind = await pgStatementKind(statement.text);
    if (kind.kind === "transaction-control" || kind.kind === "not-dry-runnable") continue;
    await client.query("SAVEPOINT svc_preamble");
    const outcome = await executeStatement(client, statement.text);
    await client.query(outcome.ok ? "RELEASE SAVEPOINT svc_preamble" : "ROLLBACK TO SAVEPOINT svc_preamble");
    if (kind.kind === "setting") await applyTimeouts(client, timeoutMs);
  }
}
