// Review rules on indexes and constraints (contract §10.4, index.* and
// constraint.*): naming, key count, indexes per table, duplicates, and the
// PostgreSQL ways to build an index or constraint without a long lock.
import type { IndexDef, StatementFacts } from "./facts.ts";
import { BOTH, POSTGRES_ONLY, quoted, quotedTable, rule, type RuleDefinition } from "./rule-definition.ts";
import { compiledPattern, integerField, patternField } from "./rule-payload.ts";
import type { IndexShape, SchemaState } from "./schema-state.ts";

const on = (index: IndexDef) => `on ${quotedTable(index.table)}`;
const label = (index: { name?: string }) => (index.name ? `index ${quoted(index.name)}` : "an unnamed index");

/** The indexes a created index's table had before it: none for a table this statement creates. */
function indexesBefore(index: IndexDef, facts: StatementFacts, state: SchemaState): readonly IndexShape[] {
  const created = facts.createTable && state.key(facts.createTable.table) === state.key(index.table);
  return created ? [] : state.indexesOf(index.table);
}

/** A constraint added by ALTER TABLE to an existing table without NOT VALID. */
function constraintRule(type: string, constraint: "CHECK" | "FOREIGN KEY"): RuleDefinition {
  return rule({
    type,
    title: `ADD ${constraint} with NOT VALID`,
    engines: POSTGRES_ONLY,
    starred: false,
    fields: {},
    statement({ facts }, _payload, { state }, report) {
      for (const c of facts.constraints) {
        if (c.type === constraint && !c.inCreateTable && !c.notValid && state.isExisting(c.table)) {
          report(`ADD ${constraint}${c.name ? ` ${quoted(c.name)}` : ""} on existing table ${quotedTable(c.table)} without NOT VALID`);
        }
      }
    },
  });
}

export const indexRules: RuleDefinition[] = [
  rule({
    type: "index.naming",
    title: "Index naming convention",
    engines: BOTH,
    starred: false,
    fields: { pattern: patternField("^idx_{table}_") },
    statement({ facts }, { pattern }, _context, report) {
      for (const index of facts.createdIndexes) {
        if (!index.declared || index.primary) continue;
        const expected = pattern.replaceAll("{table}", index.table.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
        if (!index.name || !compiledPattern(expected).test(index.name)) report(`${label(index)} ${on(index)} does not match /${expected}/`);
      }
    },
  }),
  rule({
    type: "index.key-number-limit",
    title: "Index key columns within the limit",
    engines: BOTH,
    starred: false,
    fields: { max: integerField(5) },
    statement({ facts }, { max }, _context, report) {
      for (const index of facts.createdIndexes) {
        if (index.columns.length > max) report(`${label(index)} ${on(index)} has ${index.columns.length} key columns, more than ${max}`);
      }
    },
  }),
  rule({
    type: "index.total-number-limit",
    title: "Indexes per table within the limit",
    engines: BOTH,
    starred: false,
    fields: { max: integerField(10) },
    statement({ facts }, { max }, { state }, report) {
      const counts = new Map<string, { index: IndexDef; count: number }>();
      for (const index of facts.createdIndexes) {
        const key = state.key(index.table);
        const entry = counts.get(key) ?? { index, count: indexesBefore(index, facts, state).length };
        entry.count++;
        counts.set(key, entry);
      }
      for (const { index, count } of counts.values()) if (count > max) report(`table ${quotedTable(index.table)} would have ${count} indexes, more than ${max}`);
    },
  }),
  rule({
    type: "index.no-duplicate",
    title: "No duplicate indexes",
    engines: BOTH,
    starred: false,
    fields: {},
    statement({ facts }, _payload, { state }, report) {
      const keyOf = (columns: readonly string[]) => columns.map((c) => state.fold(c)).join("\u0000");
      const seen = new Map<string, Map<string, IndexShape>>();
      for (const index of facts.createdIndexes) {
        if (index.columns.includes("(expression)")) continue;
        const table = state.key(index.table);
        let known = seen.get(table);
        if (!known) {
          known = new Map(indexesBefore(index, facts, state).map((i) => [keyOf(i.columns), i]));
          seen.set(table, known);
        }
        const twin = known.get(keyOf(index.columns));
        if (twin) report(`${label(index)} ${on(index)} has the same columns (${index.columns.join(", ")}) as ${twin.primary ? "the primary key" : label(twin)}`);
        else known.set(keyOf(index.columns), index);
      }
    },
  }),
  rule({
    type: "index.create-concurrently",
    title: "CREATE INDEX CONCURRENTLY on existing tables",
    engines: POSTGRES_ONLY,
    starred: true,
    fields: {},
    statement({ facts }, _payload, { state }, report) {
      for (const index of facts.createdIndexes) {
        if (index.declared && !index.concurrently && state.isExisting(index.table)) report(`CREATE INDEX ${index.name ? `${quoted(index.name)} ` : ""}on existing table ${quotedTable(index.table)} without CONCURRENTLY`);
      }
    },
  }),
  constraintRule("constraint.add-check-not-valid", "CHECK"),
  constraintRule("constraint.add-fk-not-valid", "FOREIGN KEY"),
];
