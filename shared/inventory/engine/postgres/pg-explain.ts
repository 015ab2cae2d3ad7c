// EXPLAIN row estimates for the DML statements of a PostgreSQL script, never
// executing them: inside one rolled-back transaction, the script's schema
// changes and search_path settings before the last DML statement are applied
// first (so DML on a table the script creates or alters can be explained),
// then each DML statement is explained in turn.
import type pg from "pg";
import { splitStatements } from "../split.ts";
import type { RowEstimate } from "../target.ts";
import { pgStatementKind, type PgStatementKind } from "./pg-statement-kind.ts";
import { inRolledBackTransaction, runUnderSavepoint } from "./pg-transaction.ts";

interface PlanNode {
  "Node Type": string;
  "Plan Rows": number;
  Plans?: PlanNode[];
}

export async function pgExplainRows(client: pg.Client, script: string, timeoutMs: number): Promise<RowEstimate[]> {
  const statements = splitStatements("POSTGRES", script);
  const kinds = await Promise.all(statements.map((s) => pgStatementKind(s.text)));
  const lastDml = kinds.findLastIndex((k) => k.kind === "dml");
  if (lastDml < 0) return [];
  return inRolledBackTransaction(client, timeoutMs, async () => {
    const estimates: RowEstimate[] = [];
    for (let index = 0; index <= lastDml; index++) {
      const { text } = statements[index]!;
      if (kinds[index]!.kind === "dml") {
        const outcome = await runUnderSavepoint(client, `EXPLAIN (FORMAT JSON) ${text}`);
        estimates.push(outcome.ok ? { index, rows: affectedRows(outcome.value) } : { index, error: outcome.failure.message });
      } else if (shapesLaterStatements(kinds[index]!)) {
        await runUnderSavepoint(client, text);
      }
    }
    return estimates;
  });
}

function shapesLaterStatements(kind: PgStatementKind): boolean {
  return kind.kind === "schema-change" || (kind.kind === "setting" && kind.name === "search_path");
}

/** The plan's row estimate; for INSERT/UPDATE/DELETE/MERGE, that of the rows fed to the modification. */
function affectedRows(result: pg.QueryResult): number {
  const plan = (result.rows[0]?.["QUERY PLAN"] as { Plan: PlanNode }[] | undefined)?.[0]?.Plan;
  if (!plan) return 0;
  const source = plan["Node Type"] === "ModifyTable" && plan.Plans?.[0] ? plan.Plans[0] : plan;
  return Math.round(source["Plan Rows"]);
}
