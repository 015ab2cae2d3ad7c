// The built-in review rules of contract §10.4, each with its code, title,
// engines, default level and payload fields. Payload defaults where §10.4
// names none:
//   statement.affected-row-limit max 1000 · statement.insert-row-limit max 1000
//   statement.max-statements max 1000 · column.required columns ["id"]
//   column.naming pattern ^[a-z][a-z0-9_]*$, maxLength 63 (as table.naming)
//   column.type-disallow-list types ["json", "serial", "bigserial", "smallserial"]
//   index.key-number-limit max 5 · index.total-number-limit max 10
//   naming.identifier-case case "lower"
// index.naming applies to declared indexes (CREATE [UNIQUE] INDEX, KEY/INDEX/
// UNIQUE KEY), not to the index behind a PRIMARY KEY or UNIQUE constraint.
import { columnRules } from "./rules-column.ts";
import { indexRules } from "./rules-index.ts";
import { namingRules } from "./rules-naming.ts";
import { statementRules } from "./rules-statement.ts";
import { tableRules } from "./rules-table.ts";
import type { RuleDefinition } from "./rule-definition.ts";

export const RULES: readonly RuleDefinition[] = [...statementRules, ...tableRules, ...columnRules, ...indexRules, ...namingRules];

export const RULES_BY_TYPE: ReadonlyMap<string, RuleDefinition> = new Map(RULES.map((rule) => [rule.type, rule]));
