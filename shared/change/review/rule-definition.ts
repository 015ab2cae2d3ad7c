// The shape of a review rule (contract §10.4): its code, title, engines,
// default level, payload fields and checks, and what a check is given. A
// check is a pure function of the statement's facts, the synced metadata (as
// the schema state before the statement) and the payload.
import type { Engine, RowEstimate } from "../../inventory/index.ts";
import type { ParsedStatement } from "./parsed-statement.ts";
import { tableLabel, type StatementFacts, type TableRef } from "./facts.ts";
import type { Position } from "./positions.ts";
import type { Fields, PayloadOf } from "./rule-payload.ts";
import type { SchemaState } from "./schema-state.ts";

/** A parsed statement (its facts known). */
export type Statement = ParsedStatement & { facts: StatementFacts };

export interface RuleContext {
  engine: Engine;
  /** Statement checks see the state before their statement. */
  state: SchemaState;
  /** Every statement of the script, parsed or not. */
  statements: readonly ParsedStatement[];
  /** Where each statement starts, by its index. */
  starts: readonly Position[];
  /** The (first) parsed statement of an index. */
  statementAt(index: number): ParsedStatement | undefined;
  /** The script's size in UTF-8 bytes. */
  scriptBytes: number;
  /** EXPLAIN facts by statement index. */
  rowEstimates: ReadonlyMap<number, RowEstimate>;
}

/** Records one violation: at the statement being checked unless another position is given. */
export type Report = (content: string, at?: Position) => void;

export interface RuleDefinition<F extends Fields = Fields> {
  type: string;
  /** Short title of the rule, the title of its advice. */
  title: string;
  engines: readonly Engine[];
  /** Starred in §10.4: ERROR in prod and WARNING elsewhere by default (the others are DISABLED). */
  starred: boolean;
  fields: F;
  /** Checks one parsed statement. */
  statement?(statement: Statement, payload: PayloadOf<F>, context: RuleContext, report: Report): void;
  /** Checks the script as a whole, after every statement. */
  script?(payload: PayloadOf<F>, context: RuleContext, report: Report): void;
}

/** Types a definition by its own fields (the catalogue holds definitions of different fields). */
export function rule<F extends Fields>(definition: RuleDefinition<F>): RuleDefinition {
  return definition as unknown as RuleDefinition;
}

export const BOTH: readonly Engine[] = ["POSTGRES", "MYSQL"];
export const POSTGRES_ONLY: readonly Engine[] = ["POSTGRES"];
export const MYSQL_ONLY: readonly Engine[] = ["MYSQL"];

/** A quoted name for advice text. */
export function quoted(name: string): string {
  return `"${name}"`;
}

/** A quoted table name for advice text: "t" or "s.t". */
export function quotedTable(table: TableRef): string {
  return quoted(tableLabel(table));
}
