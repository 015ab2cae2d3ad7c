// The three checks of one spec on one target database (contract §10.3): SQL
// review under the environment's rules, a summary with the affected-rows
// estimate, and a dry run. A target that cannot be reached still gets its
// review (which needs no connection), plus an ERROR result naming the reason.
import { type ConnectionConfig, type DatabaseMetadata, type Engine, openTarget, type RowEstimate, type Target } from "../../inventory/index.ts";
import { DomainError } from "../../platform/index.ts";
import type { PlanSpec } from "../plan/plan-specs.ts";
import { reviewScript, summarizeScript, type ReviewRule } from "../review/review.ts";
import type { CheckResult } from "./check-result.ts";

export interface CheckTarget {
  /** The database's resource name. */
  name: string;
  engine: Engine;
  /** The database's name on its server. */
  database: string;
  environmentId: string;
  /** The schema metadata of the last sync, when there was one. */
  metadata: DatabaseMetadata | undefined;
  /** The instance's ADMIN data source, its password opened. */
  connection: ConnectionConfig;
}

export interface TargetOutcome {
  results: CheckResult[];
  /** Why the checks could not complete on this target. */
  failure?: string;
}

const DRY_RUN_TIMEOUT_MS = 60_000;

/** `preamble`: what earlier changes of the plan apply to this target first (the dry run builds on it). */
export async function checkTarget(target: CheckTarget, spec: PlanSpec, rules: readonly ReviewRule[], preamble = ""): Promise<TargetOutcome> {
  const base = { target: target.name, specId: spec.id };
  const statement = spec.statement;
  let connection: Target | undefined;
  try {
    connection = openTarget({ ...target.connection, database: target.database });
    const rowEstimates = await connection.explainRows(target.database, statement);
    const advice = await reviewScript({ engine: target.engine, script: statement, rules, metadata: target.metadata, rowEstimates });
    const results: CheckResult[] = advice.map((a) => ({ ...base, type: "STATEMENT_ADVISE", ...a }));
    results.push({ ...base, ...(await summary(target, statement, rowEstimates)) });
    results.push(...dryRunResults(await connection.dryRun(target.database, statement, { timeoutMs: DRY_RUN_TIMEOUT_MS, preamble }), base));
    return { results };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const advice = await reviewScript({ engine: target.engine, script: statement, rules, metadata: target.metadata });
    const failure = `${target.name}: ${error.message}`;
    return {
      results: [
        ...advice.map((a): CheckResult => ({ ...base, type: "STATEMENT_ADVISE", ...a })),
        { ...base, type: "DRY_RUN", status: "ERROR", title: "Target unreachable", content: failure, code: "target-unreachable", line: 0, column: 0 },
      ],
      failure,
    };
  } finally {
    await connection?.close();
  }
}

async function summary(target: CheckTarget, statement: string, rowEstimates: readonly RowEstimate[]): Promise<Omit<CheckResult, "target" | "specId">> {
  const report = await summarizeScript(target.engine, statement);
  const explained = rowEstimates.reduce((sum, e) => sum + (e.rows ?? 0), 0);
  const rewritten = report.statements.reduce((sum, s) => sum + (s.rewrittenTable ? tableRows(target.metadata, s.rewrittenTable) : 0), 0);
  const affectedRows = explained + rewritten;
  return {
    type: "STATEMENT_SUMMARY_REPORT",
    status: "SUCCESS",
    title: "Statement summary",
    content: `${report.statements.length} statement(s): ${report.sqlTypes.join(", ") || "none"}; about ${affectedRows} row(s) affected`,
    code: "summary",
    line: 0,
    column: 0,
    summary: { sqlTypes: report.sqlTypes, affectedRows },
  };
}

function tableRows(metadata: DatabaseMetadata | undefined, table: { schema: string; table: string }): number {
  const schema = metadata?.schemas.find((s) => s.name === table.schema);
  return schema?.tables.find((t) => t.name === table.table)?.rowEstimate ?? 0;
}

function dryRunResults(problems: Awaited<ReturnType<Target["dryRun"]>>, base: { target: string; specId: string }): CheckResult[] {
  if (problems.length === 0) {
    return [{ ...base, type: "DRY_RUN", status: "SUCCESS", title: "Dry run passed", content: "The statements ran and were rolled back.", code: "ok", line: 0, column: 0 }];
  }
  return problems.map((p) =>
    p.kind === "error"
      ? { ...base, type: "DRY_RUN", status: "ERROR", title: "Dry run failed", content: p.message, code: "dry-run-failed", line: p.line, column: p.column }
      : { ...base, type: "DRY_RUN", status: "WARNING", title: "Not dry-runnable", content: p.message, code: "not-dry-runnable", line: p.line, column: p.column },
  );
}

/** Scripts applied one after another on one database, as one preamble. */
export function preambleOf(scripts: readonly string[]): string {
  return scripts.map((script) => `${script}\n;\n`).join("");
}
