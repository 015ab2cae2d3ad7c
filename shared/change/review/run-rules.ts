// Applies configured rules to a parsed script: statement checks in script
// order, each seeing the schema state before its statement, then script
// checks; one violation per finding.
import type { DatabaseMetadata, RowEstimate } from "../../inventory/index.ts";
import type { ParsedScript } from "./parsed-script.ts";
import type { ParsedStatement } from "./parsed-statement.ts";
import type { Position } from "./positions.ts";
import type { Report, RuleContext, RuleDefinition, Statement } from "./rule-definition.ts";
import { SchemaState } from "./schema-state.ts";

export interface ActiveRule {
  definition: RuleDefinition;
  payload: Record<string, unknown>;
  status: "ERROR" | "WARNING";
}

export interface Violation extends Position {
  rule: ActiveRule;
  content: string;
}

export interface RunInput {
  parsed: ParsedScript;
  scriptBytes: number;
  metadata?: DatabaseMetadata;
  rowEstimates?: readonly RowEstimate[];
}

export function runRules(rules: readonly ActiveRule[], input: RunInput): Violation[] {
  const { parsed } = input;
  const byIndex = new Map<number, ParsedStatement>();
  for (const statement of parsed.statements) if (!byIndex.has(statement.index)) byIndex.set(statement.index, statement);
  const context: RuleContext = {
    engine: parsed.engine,
    state: new SchemaState(parsed.engine, input.metadata),
    statements: parsed.statements,
    starts: parsed.starts,
    scriptBytes: input.scriptBytes,
    rowEstimates: new Map((input.rowEstimates ?? []).map((estimate) => [estimate.index, estimate])),
    statementAt: (index) => byIndex.get(index),
  };
  const violations: Violation[] = [];
  let current: Position = { line: 1, column: 1 };
  const reporters = rules.map(
    (rule): Report =>
      (content, at = current) =>
        violations.push({ rule, content, line: at.line, column: at.column }),
  );
  for (const statement of parsed.statements) {
    if (!statement.facts) continue;
    current = statement;
    rules.forEach((rule, i) => rule.definition.statement?.(statement as Statement, rule.payload, context, reporters[i]!));
    context.state.apply(statement.facts);
  }
  rules.forEach((rule, i) => rule.definition.script?.(rule.payload, context, reporters[i]!));
  return violations;
}
