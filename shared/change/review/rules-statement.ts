// Review rules on statements as a whole (contract §10.4, statement.*):
// WHERE clauses, SELECT *, LIKE patterns, transaction control, DDL/DML mix,
// row counts from EXPLAIN, statement count and size, lock_timeout, MySQL
// online DDL options.
import type { StatementFacts } from "./facts.ts";
import { BOTH, MYSQL_ONLY, POSTGRES_ONLY, quotedTable, rule, type RuleContext, type RuleDefinition } from "./rule-definition.ts";
import { integerField } from "./rule-payload.ts";

const on = (facts: StatementFacts) => (facts.filtered?.table ? ` on ${quotedTable(facts.filtered.table)}` : "");

/** The statement type of a statement index, for advice text ("statement 3 (UPDATE)"). */
function statementName(context: RuleContext, index: number): string {
  const sqlType = context.statementAt(index)?.facts?.sqlType;
  return `statement ${index + 1}${sqlType ? ` (${sqlType})` : ""}`;
}

export const statementRules: RuleDefinition[] = [
  rule({
    type: "statement.where-required-update-delete",
    title: "UPDATE and DELETE need a WHERE clause",
    engines: BOTH,
    starred: true,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      if (facts.filtered && facts.filtered.verb !== "SELECT" && !facts.filtered.hasWhere) report(`${facts.filtered.verb}${on(facts)} has no WHERE clause`);
    },
  }),
  rule({
    type: "statement.where-required-select",
    title: "SELECT needs a WHERE clause",
    engines: BOTH,
    starred: false,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      if (facts.filtered?.verb === "SELECT" && !facts.filtered.hasWhere) report(`SELECT${on(facts)} has no WHERE clause`);
    },
  }),
  rule({
    type: "statement.no-select-all",
    title: "No SELECT *",
    engines: BOTH,
    starred: false,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      if (facts.selectStar) report(`${facts.sqlType}${on(facts)} selects * instead of naming its columns`);
    },
  }),
  rule({
    type: "statement.no-leading-wildcard-like",
    title: "No leading wildcard in LIKE",
    engines: BOTH,
    starred: false,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      for (const pattern of facts.leadingWildcards) report(`LIKE '${pattern}' starts with a wildcard, so no index can serve it`);
    },
  }),
  rule({
    type: "statement.disallow-commit",
    title: "No COMMIT or ROLLBACK in a change",
    engines: BOTH,
    starred: true,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      if (facts.transaction === "COMMIT" || facts.transaction === "ROLLBACK") report(`${facts.transaction} inside a change: the rollout manages the transaction`);
    },
  }),
  rule({
    type: "statement.disallow-mix-ddl-dml",
    title: "No DDL and DML in one change",
    engines: BOTH,
    starred: false,
    fields: {},
    script(_payload, context, report) {
      const ddl = context.statements.find((s) => s.facts?.kind === "DDL");
      const dml = context.statements.find((s) => s.facts?.kind === "DML");
      if (!ddl || !dml) return;
      const later = ddl.index > dml.index ? ddl : dml;
      report(`the change mixes DDL (${ddl.facts!.sqlType} at line ${ddl.line}) and DML (${dml.facts!.sqlType} at line ${dml.line})`, later);
    },
  }),
  rule({
    type: "statement.affected-row-limit",
    title: "Affected rows within the limit",
    engines: BOTH,
    starred: false,
    fields: { max: integerField(1000, 0) },
    script({ max }, context, report) {
      for (const [index, estimate] of context.rowEstimates) {
        if (estimate.rows !== undefined && estimate.rows > max) {
          report(`${statementName(context, index)} affects about ${estimate.rows} rows, more than ${max}`, context.starts[index]);
        }
      }
    },
  }),
  rule({
    type: "statement.insert-row-limit",
    title: "INSERT rows within the limit",
    engines: BOTH,
    starred: false,
    fields: { max: integerField(1000) },
    statement({ facts }, { max }, _context, report) {
      if (facts.insert && facts.insert.valuesRows > max) report(`INSERT into ${quotedTable(facts.insert.table)} has ${facts.insert.valuesRows} VALUES rows, more than ${max}`);
    },
  }),
  rule({
    type: "statement.insert-must-specify-columns",
    title: "INSERT names its columns",
    engines: BOTH,
    starred: false,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      if (facts.insert && !facts.insert.columnList) report(`INSERT into ${quotedTable(facts.insert.table)} does not name its columns`);
    },
  }),
  rule({
    type: "statement.max-statements",
    title: "Statement count within the limit",
    engines: BOTH,
    starred: false,
    fields: { max: integerField(1000) },
    script({ max }, context, report) {
      if (context.starts.length > max) report(`the change has ${context.starts.length} statements, more than ${max}`, context.starts[max]);
    },
  }),
  rule({
    type: "statement.max-size",
    title: "Statement size within the limit",
    engines: BOTH,
    starred: true,
    fields: { bytes: integerField(2 * 1024 * 1024) },
    script({ bytes }, context, report) {
      if (context.scriptBytes > bytes) report(`the statement is ${context.scriptBytes} bytes, more than ${bytes}`, context.starts[0] ?? { line: 1, column: 1 });
    },
  }),
  rule({
    type: "statement.dml-dry-run",
    title: "DML passes EXPLAIN",
    engines: BOTH,
    starred: false,
    fields: {},
    script(_payload, context, report) {
      for (const [index, estimate] of context.rowEstimates) {
        if (estimate.error !== undefined) report(`${statementName(context, index)} fails when explained: ${estimate.error}`, context.starts[index]);
      }
    },
  }),
  rule({
    type: "statement.lock-timeout-required",
    title: "SET lock_timeout before DDL",
    engines: POSTGRES_ONLY,
    starred: false,
    fields: {},
    statement({ facts }, _payload, { state }, report) {
      if (facts.kind !== "DDL" || state.lockTimeoutSet) return;
      const existing = facts.tables.find((table) => state.isExisting(table));
      if (existing) report(`${facts.sqlType} on existing table ${quotedTable(existing)} has no SET lock_timeout before it`);
    },
  }),
  rule({
    type: "statement.online-ddl-options",
    title: "ALTER TABLE names ALGORITHM or LOCK",
    engines: MYSQL_ONLY,
    starred: false,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      if (facts.alterTable && !facts.alterTable.algorithmOrLock) report(`ALTER TABLE ${quotedTable(facts.alterTable.table)} names neither ALGORITHM nor LOCK`);
    },
  }),
];
