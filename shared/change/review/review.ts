// SQL review (contract §10.3 STATEMENT_ADVISE, §10.4 rules): parses a change
// script with its engine's parser (libpg-query for PostgreSQL; sqlparser-rs,
// then node-sql-parser for what it leaves, for MySQL: mysql-parser.ts),
// reduces each statement to engine-neutral facts, and applies the
// environment's rules to them. Also: the effective rules of an environment,
// the validation of a configured rule, and the statement summary of a script
// (STATEMENT_SUMMARY_REPORT).
import type { DatabaseMetadata, Engine, RowEstimate } from "../../inventory/index.ts";
import { RULES, RULES_BY_TYPE } from "./catalogue.ts";
import type { StatementKind } from "./facts.ts";
import { parseScript } from "./parsed-script.ts";
import { utf8Length } from "./positions.ts";
import { defaultPayload, readPayload } from "./rule-payload.ts";
import { runRules, type ActiveRule } from "./run-rules.ts";
import { SchemaState } from "./schema-state.ts";

export type RuleLevel = "ERROR" | "WARNING" | "DISABLED";

export interface ReviewRule {
  type: string;
  level: RuleLevel;
  payload: Record<string, unknown>;
}

export interface Advice {
  code: string;
  status: "SUCCESS" | "WARNING" | "ERROR";
  title: string;
  content: string;
  /** 1-based position of the offending statement (or of the parser's stop); 0 for the SUCCESS advice. */
  line: number;
  column: number;
}

export interface ReviewInput {
  engine: Engine;
  script: string;
  rules: readonly ReviewRule[];
  metadata?: DatabaseMetadata;
  rowEstimates?: readonly RowEstimate[];
}

/** The code of the one advice of a script without violations. */
export const SUCCESS_CODE = "ok";
/** The code of a statement the parser refused (always WARNING: it needs human review). */
export const UNPARSED_CODE = "syntax-unparsed";

/**
 * The advice for a script: one per violation (level ERROR → status ERROR,
 * WARNING → WARNING; DISABLED rules and rules of another engine do not run),
 * one WARNING per statement the parser refused, or else one SUCCESS advice.
 * Never throws for SQL it cannot parse.
 */
export async function reviewScript(input: ReviewInput): Promise<Advice[]> {
  const parsed = await parseScript(input.engine, input.script);
  const advice: Advice[] = [];
  for (const { unparsed } of parsed.statements) {
    if (unparsed) advice.push({ code: UNPARSED_CODE, status: "WARNING", title: "Statement not parsed", content: `${unparsed.message} (needs human review)`, line: unparsed.line, column: unparsed.column });
  }
  const violations = runRules(activeRules(input.engine, input.rules), { parsed, scriptBytes: utf8Length(input.script), metadata: input.metadata, rowEstimates: input.rowEstimates });
  for (const v of violations) advice.push({ code: v.rule.definition.type, status: v.rule.status, title: v.rule.definition.title, content: v.content, line: v.line, column: v.column });
  if (!advice.length) return [{ code: SUCCESS_CODE, status: "SUCCESS", title: "OK", content: "The statement passes every review rule.", line: 0, column: 0 }];
  // Script order; at one position, parser problems first, then the rules in their configured order (stable sort).
  return advice.sort((a, b) => a.line - b.line || a.column - b.column);
}

function activeRules(engine: Engine, rules: readonly ReviewRule[]): ActiveRule[] {
  const active: ActiveRule[] = [];
  for (const rule of rules) {
    const definition = RULES_BY_TYPE.get(rule.type);
    if (!definition || rule.level === "DISABLED" || !definition.engines.includes(engine)) continue;
    // A payload that fails validation (settings refuse it, so only an old stored one) runs with the defaults.
    const read = readPayload(definition.fields, rule.payload);
    active.push({ definition, status: rule.level, payload: "payload" in read ? read.payload : defaultPayload(definition.fields) });
  }
  return active;
}

/**
 * Every built-in rule for an environment: the starred rules of §10.4 at ERROR
 * in "prod" and WARNING elsewhere, the others DISABLED; a configured entry
 * replaces its rule's level and payload (missing payload fields at their
 * defaults). Catalogue order; configured entries of unknown types are left out.
 */
export function effectiveRules(environmentId: string, configured: readonly ReviewRule[] | undefined): ReviewRule[] {
  const byType = new Map((configured ?? []).map((rule) => [rule.type, rule]));
  return RULES.map((definition) => {
    const rule = byType.get(definition.type);
    const read = rule ? readPayload(definition.fields, rule.payload) : undefined;
    const payload = read && "payload" in read ? read.payload : defaultPayload(definition.fields);
    const level: RuleLevel = rule?.level ?? (definition.starred ? (environmentId === "prod" ? "ERROR" : "WARNING") : "DISABLED");
    return { type: definition.type, level, payload };
  });
}

/**
 * What is wrong with a configured rule, starting with the field at fault
 * (`type …` or `payload.<field> …`), or undefined when it is valid.
 */
export function ruleProblem(rule: { type: string; payload?: Record<string, unknown> }): string | undefined {
  const definition = RULES_BY_TYPE.get(rule.type);
  if (!definition) return `type "${rule.type}" is not a review rule (known: ${RULES.map((r) => r.type).join(", ")})`;
  const read = readPayload(definition.fields, rule.payload);
  return "problem" in read ? read.problem : undefined;
}

export interface ScriptSummary {
  /** Distinct statement types in first-seen order ("UNKNOWN" for a statement the parser refused). */
  sqlTypes: string[];
  statements: { index: number; sqlType: string; kind: StatementKind; line: number; column: number; rewrittenTable?: { schema: string; table: string } }[];
}

/** The statement types of a script and the tables its DDL rewrites (STATEMENT_SUMMARY_REPORT). */
export async function summarizeScript(engine: Engine, script: string): Promise<ScriptSummary> {
  const parsed = await parseScript(engine, script);
  const state = new SchemaState(engine, undefined);
  const statements: ScriptSummary["statements"] = parsed.statements.map(({ index, line, column, facts }) => {
    if (!facts) return { index, sqlType: "UNKNOWN", kind: "OTHER", line, column };
    const rewrites = facts.rewrites;
    const summary = { index, sqlType: facts.sqlType, kind: facts.kind, line, column, ...(rewrites ? { rewrittenTable: { schema: state.schemaOf(rewrites), table: rewrites.name } } : {}) };
    state.apply(facts);
    return summary;
  });
  return { sqlTypes: [...new Set(statements.map((s) => s.sqlType))], statements };
}
