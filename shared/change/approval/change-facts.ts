// The facts approval rules are evaluated over (contract §7.3): one set per
// change of a target — per spec and target database, and per SQL type the
// summary check found there (a script that creates one table and drops
// another is judged as both) — with the affected-rows estimate and the
// highest level of that target's check results.
import type { CommonQueryMethods } from "slonik";
import { databaseName, parseDatabaseName } from "../../inventory/index.ts";
import type { CheckResult, ResultStatus } from "../plan-check/check-result.ts";
import type { PlanRow } from "../plan/plan.store.ts";
import type { ChangeFacts } from "./approval-condition.ts";
import { targetFacts } from "./approval-targets.store.ts";

const LEVELS: readonly ResultStatus[] = ["SUCCESS", "WARNING", "ERROR"];

/** Every change of the plan, as the results of its finished check run describe it. */
export async function changeFactsOf(db: CommonQueryMethods, plan: PlanRow, results: readonly CheckResult[], creator: string): Promise<ChangeFacts[]> {
  const refs = [...new Set(plan.specs.flatMap((spec) => spec.targets))].map((target) => parseDatabaseName(target, "target"));
  const targets = new Map((await targetFacts(db, refs)).map((t) => [databaseName(t), t]));
  const resultsOf = Map.groupBy(results, (r) => changeKey(r.specId, r.target));
  return plan.specs.flatMap((spec) =>
    spec.targets.flatMap((target) => {
      const ref = parseDatabaseName(target, "target");
      const facts = targets.get(target);
      const own = resultsOf.get(changeKey(spec.id, target)) ?? [];
      const summary = own.find((r) => r.type === "STATEMENT_SUMMARY_REPORT")?.summary;
      const sqlTypes = summary?.sqlTypes.length ? summary.sqlTypes : [""];
      const resource = {
        environment_id: facts?.environment ?? "",
        project_id: plan.projectId,
        instance_id: ref.instanceId,
        database_name: ref.name,
        db_engine: facts?.engine ?? "",
      };
      return sqlTypes.map((sqlType) => ({
        resource,
        statement: { sql_type: sqlType, affected_rows: summary?.affectedRows ?? 0, text: spec.statement },
        plan_check: { max_level: maxLevel(own) },
        issue: { creator },
      }));
    }),
  );
}

/** One change: a spec on one target (a plan has thousands of them; their results are looked up, not searched). */
function changeKey(specId: string, target: string): string {
  return `${specId} ${target}`;
}

function maxLevel(results: readonly CheckResult[]): ResultStatus {
  return results.reduce<ResultStatus>((max, r) => (LEVELS.indexOf(r.status) > LEVELS.indexOf(max) ? r.status : max), "SUCCESS");
}
