// Review rules on databases and tables (contract §10.4): DROP DATABASE/SCHEMA,
// primary and foreign keys, dropping, naming, truncating, comments, and the
// MySQL storage engine.
import type { TableRef } from "./facts.ts";
import { BOTH, MYSQL_ONLY, quoted, quotedTable, rule, type RuleDefinition } from "./rule-definition.ts";
import { namingProblem, SNAKE_CASE } from "./naming.ts";
import { compiledPattern, integerField, patternField } from "./rule-payload.ts";

export const tableRules: RuleDefinition[] = [
  rule({
    type: "database.drop-disallowed",
    title: "No DROP DATABASE or DROP SCHEMA",
    engines: BOTH,
    starred: true,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      for (const { kind, name } of facts.droppedDatabases) report(`DROP ${kind} ${quoted(name)}`);
    },
  }),
  rule({
    type: "table.require-pk",
    title: "Tables have a primary key",
    engines: BOTH,
    starred: true,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      const created = facts.createTable;
      if (created && !created.derived && !created.hasPrimaryKey) report(`CREATE TABLE ${quotedTable(created.table)} has no primary key`);
    },
  }),
  rule({
    type: "table.no-foreign-key",
    title: "No foreign keys",
    engines: BOTH,
    starred: false,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      for (const c of facts.constraints) {
        if (c.type === "FOREIGN KEY") report(`foreign key${c.name ? ` ${quoted(c.name)}` : ""} declared on ${quotedTable(c.table)}`);
      }
    },
  }),
  rule({
    type: "table.drop-naming-convention",
    title: "Drop only tables renamed for dropping",
    engines: BOTH,
    starred: true,
    fields: { pattern: patternField("_del$") },
    statement({ facts }, { pattern }, _context, report) {
      for (const table of facts.droppedTables) {
        if (!compiledPattern(pattern).test(table.name)) report(`DROP TABLE ${quotedTable(table)}: only a table renamed to match /${pattern}/ may be dropped`);
      }
    },
  }),
  rule({
    type: "table.naming",
    title: "Table naming convention",
    engines: BOTH,
    starred: false,
    fields: { pattern: patternField(SNAKE_CASE), maxLength: integerField(63) },
    statement({ facts }, { pattern, maxLength }, _context, report) {
      const named: TableRef[] = [...(facts.createTable ? [facts.createTable.table] : []), ...facts.renamedTables.map((r) => r.to)];
      for (const { name } of named) {
        const problem = namingProblem(name, pattern, maxLength);
        if (problem) report(`table name ${quoted(name)} ${problem}`);
      }
    },
  }),
  rule({
    type: "table.disallow-truncate",
    title: "No TRUNCATE",
    engines: BOTH,
    starred: false,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      for (const table of facts.truncatedTables) report(`TRUNCATE of ${quotedTable(table)}`);
    },
  }),
  rule({
    type: "table.comment-required",
    title: "Tables have a comment",
    engines: BOTH,
    starred: false,
    fields: {},
    script(_payload, { statements, state }, report) {
      const commented = new Set(statements.flatMap((s) => s.facts?.commentedTables ?? []).map((table) => state.key(table)));
      for (const s of statements) {
        const created = s.facts?.createTable;
        if (created && !created.hasComment && !commented.has(state.key(created.table))) report(`table ${quotedTable(created.table)} has no comment`, s);
      }
    },
  }),
  rule({
    type: "table.engine-innodb",
    title: "Tables use InnoDB",
    engines: MYSQL_ONLY,
    starred: false,
    fields: {},
    statement({ facts }, _payload, _context, report) {
      const engine = facts.tableEngine;
      if (engine && engine.engine.toLowerCase() !== "innodb") report(`table ${quotedTable(engine.table)} uses the ${engine.engine} engine, not InnoDB`);
    },
  }),
];
