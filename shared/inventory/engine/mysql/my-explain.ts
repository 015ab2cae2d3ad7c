// EXPLAIN row estimates for the DML statements of a MySQL script, never
// executing them. MySQL DDL is not transactional, so nothing of the script is
// applied first: every DML statement is explained on the current schema, and
// one that fails only because it needs the script's earlier DDL (a table or
// column the script creates) gets no entry.
import type { Connection } from "mysql2/promise";
import { splitStatements } from "../split.ts";
import type { RowEstimate } from "../target.ts";
import { SchemaModel } from "./my-schema-model.ts";
import { isDml, myStatementKind } from "./my-statement-kind.ts";
import { isMariaDb } from "./my-flavor.ts";
import { applyTimeouts, runChecked } from "./my-run.ts";
import { tokenize } from "./my-tokens.ts";

export async function mysqlExplainRows(connection: Connection, database: string, script: string, timeoutMs: number): Promise<RowEstimate[]> {
  const statements = splitStatements("MYSQL", script);
  const model = await SchemaModel.load(connection, database);
  await applyTimeouts(connection, timeoutMs, await isMariaDb(connection));
  const estimates: RowEstimate[] = [];
  for (const [index, { text }] of statements.entries()) {
    const kind = myStatementKind(text);
    const tokens = tokenize(text);
    if (kind === "ddl") model.apply(tokens);
    if (!isDml(kind)) continue;
    const outcome = await runChecked(connection, `EXPLAIN ${text}`, text, timeoutMs);
    if (outcome.ok) estimates.push({ index, rows: estimatedRows(outcome.rows) });
    else if (model.changedTablesIn(tokens).length === 0 || model.stillFails(outcome.failure.message, tokens)) {
      estimates.push({ index, error: outcome.failure.message });
    }
  }
  return estimates;
}

/** The largest per-table estimate of the plan (the modified table for UPDATE/DELETE); 0 when none (INSERT … VALUES). */
function estimatedRows(rows: unknown): number {
  const estimates = (rows as { rows?: unknown }[]).map((r) => Number(r.rows)).filter((n) => Number.isFinite(n));
  return estimates.length ? Math.max(...estimates) : 0;
}
