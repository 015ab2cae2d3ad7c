// CEL conditions of approval rules (contract §7.3), evaluated with
// @bufbuild/cel over the variables of a database change. A condition is
// accepted only when it parses and evaluates to a bool over sample values of
// every variable, so a misspelt variable or field is refused when the rule is
// written, not when an issue is created.
import { isCelError, parse, run, type CelInput } from "@bufbuild/cel";

export interface ChangeFacts {
  resource: { environmentId: string; projectId: string; instanceId: string; databaseName: string; dbEngine: "POSTGRES" | "MYSQL" };
  statement: { sqlType: string; affectedRows: number; text: string };
  planCheckMaxLevel: "SUCCESS" | "WARNING" | "ERROR";
  issueCreator: string;
}

const SAMPLE: ChangeFacts = {
  resource: { environmentId: "prod", projectId: "sample", instanceId: "sample", databaseName: "sample", dbEngine: "POSTGRES" },
  statement: { sqlType: "ALTER_TABLE", affectedRows: 0, text: "" },
  planCheckMaxLevel: "SUCCESS",
  issueCreator: "users/sample",
};

/** The reason a condition cannot be used, or undefined when it can. */
export function conditionProblem(expression: string): string | undefined {
  try {
    parse(expression);
  } catch (error) {
    return (error as Error).message;
  }
  const result = evaluate(expression, SAMPLE);
  if ("problem" in result) return result.problem;
  return typeof result.value === "boolean" ? undefined : "the condition must be true or false";
}

/** Whether the condition holds for the change (a condition that fails to evaluate does not hold). */
export function conditionHolds(expression: string, facts: ChangeFacts): boolean {
  const result = evaluate(expression, facts);
  return "value" in result && result.value === true;
}

function evaluate(expression: string, facts: ChangeFacts): { value: unknown } | { problem: string } {
  try {
    const value = run(expression, bindings(facts));
    return isCelError(value) ? { problem: value.message } : { value };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

function bindings(facts: ChangeFacts): Record<string, CelInput> {
  return {
    resource: new Map<string, CelInput>([
      ["environment_id", facts.resource.environmentId],
      ["project_id", facts.resource.projectId],
      ["instance_id", facts.resource.instanceId],
      ["database_name", facts.resource.databaseName],
      ["db_engine", facts.resource.dbEngine],
    ]),
    statement: new Map<string, CelInput>([
      ["sql_type", facts.statement.sqlType],
      ["affected_rows", BigInt(facts.statement.affectedRows)],
      ["text", facts.statement.text],
    ]),
    plan_check: new Map<string, CelInput>([["max_level", facts.planCheckMaxLevel]]),
    issue: new Map<string, CelInput>([["creator", facts.issueCreator]]),
  };
}
