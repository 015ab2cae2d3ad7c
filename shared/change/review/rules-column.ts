// Review rules on columns (contract §10.4, column.*): naming, dropping, type
// changes, NOT NULL without DEFAULT, required columns, renaming, and types
// that are not allowed.
import { canonicalPrintedType, canonicalTypeName } from "./column-types.ts";
import type { StatementFacts, TableRef } from "./facts.ts";
import { namingProblem, SNAKE_CASE } from "./naming.ts";
import { BOTH, quoted, quotedTable, rule, type RuleDefinition } from "./rule-definition.ts";
import { integerField, namesField, patternField } from "./rule-payload.ts";

/** Columns the statement defines: a new table's, added ones, and the new names of renamed ones. */
function definedColumns(facts: StatementFacts): { table: TableRef; name: string; typeName?: string }[] {
  const created = facts.createTable;
  return [
    ...(created ? created.columns.map((c) => ({ table: created.table, name: c.name, typeName: c.typeName })) : []),
    ...facts.addedColumns.map(({ table, column }) => ({ table, name: column.name, typeName: column.typeName })),
    ...facts.renamedColumns.map(({ table, to }) => ({ table, name: to })),
  ];
}

const on = (table: TableRef) => `on ${quotedTable(table)}`;

export const columnRules: RuleDefinition[] = [
  rule({
    type: "column.naming",
    title: "Column naming convention",
    engines: BOTH,
    starred: false,
    fields: { pattern: patternField(SNAKE_CASE), maxLength: integerField(63) },
    statement({ facts }, { pattern, maxLength }, _context, report) {
      for (const { table, name } of definedColumns(facts)) {
        const problem = namingProblem(name, pattern, maxLength);
        if (problem) report(`column name ${quoted(name)} ${on(table)} ${problem}`);
      }
    },
  }),
  rule({
    type: "column.disallow-drop",
    title: "No DROP COLUMN",
    engines: BOTH,
    starred: true,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      for (const { table, column } of facts.droppedColumns) report(`DROP COLUMN ${quoted(column)} ${on(table)}`);
    },
  }),
  rule({
    type: "column.disallow-change-type",
    title: "No column type change",
    engines: BOTH,
    starred: true,
    fields: {},
    statement({ facts }, _payload, { state }, report) {
      for (const change of facts.typeChanges) {
        const current = state.existingMetadata(change.table)?.columns.find((c) => state.fold(c.name) === state.fold(change.column));
        const currentType = current && canonicalPrintedType(current.type);
        if (!change.explicit && currentType === change.type) continue;
        report(`column ${quoted(change.column)} ${on(change.table)} changes type to ${change.type}${currentType ? ` from ${currentType}` : ""}`);
      }
    },
  }),
  rule({
    type: "column.not-null-requires-default",
    title: "NOT NULL column added with a DEFAULT",
    engines: BOTH,
    starred: true,
    fields: {},
    statement({ facts }, _payload, { state }, report) {
      for (const { table, column } of facts.addedColumns) {
        if (column.notNull && !column.hasDefault && !column.generated && state.isExisting(table)) {
          report(`ADD COLUMN ${quoted(column.name)} NOT NULL without DEFAULT on existing table ${quotedTable(table)}`);
        }
      }
    },
  }),
  rule({
    type: "column.required",
    title: "Tables have the required columns",
    engines: BOTH,
    starred: false,
    fields: { columns: namesField(["id"]) },
    statement({ facts }, { columns }, { state }, report) {
      const required = (name: string) => columns.some((c) => state.fold(c) === state.fold(name));
      const created = facts.createTable;
      if (created && !created.derived) {
        const present = new Set(created.columns.map((c) => state.fold(c.name)));
        const missing = columns.filter((c) => !present.has(state.fold(c)));
        if (missing.length) report(`table ${quotedTable(created.table)} lacks the required column${missing.length > 1 ? "s" : ""} ${missing.map(quoted).join(", ")}`);
      }
      for (const { table, column } of facts.droppedColumns) if (required(column)) report(`DROP COLUMN ${quoted(column)} ${on(table)} removes a required column`);
      for (const { table, from, to } of facts.renamedColumns) {
        if (required(from) && !required(to)) report(`renaming ${quoted(from)} ${on(table)} to ${quoted(to)} removes a required column`);
      }
    },
  }),
  rule({
    type: "column.disallow-rename",
    title: "No column rename",
    engines: BOTH,
    starred: false,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      for (const { table, from, to } of facts.renamedColumns) report(`column ${quoted(from)} ${on(table)} is renamed to ${quoted(to)}`);
    },
  }),
  rule({
    type: "column.type-disallow-list",
    title: "No disallowed column types",
    engines: BOTH,
    starred: false,
    fields: { types: namesField(["json", "serial", "bigserial", "smallserial"]) },
    statement({ facts }, { types }, _context, report) {
      const disallowed = new Set(types.map(canonicalTypeName));
      const typed = [...definedColumns(facts), ...facts.typeChanges.map(({ table, column, typeName }) => ({ table, name: column, typeName }))];
      for (const { table, name, typeName } of typed) {
        if (typeName && disallowed.has(typeName)) report(`column ${quoted(name)} ${on(table)} has the disallowed type ${typeName}`);
      }
    },
  }),
];
