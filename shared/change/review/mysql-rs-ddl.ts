// The sqlparser-rs adapter, part two: the facts of table definitions —
// CREATE TABLE, ALTER TABLE and CREATE INDEX — the same as mysql-ddl.ts
// reads from node-sql-parser's tree.
import type { ColumnDef, StatementFacts, TableRef } from "./facts.ts";
import type { Tree } from "./mysql-nodes.ts";
import { identName, node, nodes, simpleName, tableRef, unclaimed, variantOf } from "./mysql-rs-nodes.ts";
import { rsTypeOf } from "./mysql-rs-types.ts";

/** ALTER TABLE operations that do not copy the table (as mysql-ddl.ts's IN_PLACE_RESOURCES). */
const IN_PLACE_OPERATIONS = new Set(["AddConstraint", "DropIndex", "DropConstraint", "RenameTable", "Algorithm", "Lock"]);
/** Column options that say nothing the rules read. */
const IGNORED_COLUMN_OPTIONS = new Set(["Null", "Comment", "CharacterSet", "Collation", "OnUpdate", "Check"]);

export function rsCreateTableFacts(create: Tree, facts: StatementFacts): void {
  const table = tableRef(create.name);
  const options = tableOptions(create);
  const created: NonNullable<StatementFacts["createTable"]> = {
    table,
    columns: [],
    hasPrimaryKey: false,
    derived: create.like != null || create.query != null,
    engine: options.engine,
    hasComment: !!options.comment,
  };
  facts.createTable = created;
  facts.tables.push(table);
  if (options.engine) facts.tableEngine = { table, engine: options.engine };
  for (const column of nodes(create.columns)) created.columns.push(columnFacts(table, identName(column.name), column.data_type, column.options, facts, true));
  for (const constraint of nodes(create.constraints)) constraintFacts(table, constraint, facts, true);
  created.hasPrimaryKey = created.columns.some((c) => c.primaryKey) || facts.constraints.some((c) => c.type === "PRIMARY KEY");
}

export function rsCreateIndexFacts(create: Tree, facts: StatementFacts): void {
  if (create.using != null || create.predicate != null || create.concurrently === true) unclaimed("an index with USING, WHERE or CONCURRENTLY");
  const table = tableRef(create.table_name);
  facts.tables.push(table);
  facts.createdIndexes.push({
    table,
    name: create.name == null ? undefined : simpleName(create.name),
    columns: keyParts(create.columns),
    unique: create.unique === true,
    primary: false,
    declared: true,
    concurrently: false,
  });
}

export function rsAlterTableFacts(alter: Tree, facts: StatementFacts): void {
  const table = tableRef(alter.name);
  facts.tables.push(table);
  const operations = Array.isArray(alter.operations) ? alter.operations.map(variantOf) : [];
  facts.alterTable = { table, algorithmOrLock: operations.some(([op]) => op === "Algorithm" || op === "Lock") };
  const instant = operations.some(([op, body]) => op === "Algorithm" && node(body)?.algorithm === "Instant");
  for (const [op, body] of operations) alterOperationFacts(table, op, node(body) ?? {}, facts);
  if (!instant && operations.some(([op]) => !IN_PLACE_OPERATIONS.has(op))) facts.rewrites = table;
}

function alterOperationFacts(table: TableRef, op: string, body: Tree, facts: StatementFacts): void {
  switch (op) {
    case "AddColumn": {
      const definition = node(body.column_def) ?? {};
      facts.addedColumns.push({ table, column: columnFacts(table, identName(definition.name), definition.data_type, definition.options, facts, false) });
      break;
    }
    case "DropColumn": {
      const names = nodes(body.column_names);
      if (names.length !== 1) unclaimed("a DROP COLUMN of several columns");
      facts.droppedColumns.push({ table, column: identName(names[0]) });
      break;
    }
    case "ModifyColumn":
    case "ChangeColumn": {
      const from = identName(op === "ChangeColumn" ? body.old_name : body.col_name);
      const column = columnFacts(table, identName(op === "ChangeColumn" ? body.new_name : body.col_name), body.data_type, body.options, facts, false);
      if (from !== column.name) facts.renamedColumns.push({ table, from, to: column.name });
      facts.typeChanges.push({ table, column: from, type: column.type, typeName: column.typeName, explicit: false });
      break;
    }
    case "RenameColumn":
      facts.renamedColumns.push({ table, from: identName(body.old_column_name), to: identName(body.new_column_name) });
      break;
    case "AddConstraint":
      if (body.not_valid === true) unclaimed("NOT VALID, which MySQL does not have");
      constraintFacts(table, node(body.constraint) ?? {}, facts, false);
      break;
    case "DropIndex":
      facts.droppedIndexes.push({ table, name: identName(body.name) });
      break;
    case "DropConstraint":
      facts.droppedIndexes.push({ table, name: identName(body.name) });
      break;
    case "DropPrimaryKey":
      facts.droppedIndexes.push({ table, name: "PRIMARY" });
      break;
    case "RenameTable": {
      const [, name] = variantOf(body.table_name);
      const to = tableRef(name);
      facts.renamedTables.push({ from: table, to: { ...(table.schema ? { schema: table.schema } : {}), name: to.name } });
      break;
    }
    case "Algorithm":
    case "Lock":
      break;
    default:
      unclaimed(`ALTER TABLE … ${op}`);
  }
}

/** A column definition (CREATE TABLE element, ADD/MODIFY/CHANGE COLUMN) and the keys written on it. */
function columnFacts(table: TableRef, name: string, dataType: unknown, options: unknown, facts: StatementFacts, inCreateTable: boolean): ColumnDef {
  const column: ColumnDef = { name, ...rsTypeOf(dataType), notNull: false, hasDefault: false, generated: false, primaryKey: false };
  let unique = false;
  let foreignKey = false;
  // ADD COLUMN wraps each option as {name, option}; MODIFY and CHANGE list the bare options.
  for (const item of Array.isArray(options) ? options : []) {
    const wrapped = node(item) && "option" in node(item)! ? node(item)! : undefined;
    if (wrapped?.name != null) unclaimed("a named column constraint");
    const [option, body] = variantOf(wrapped ? wrapped.option : item);
    if (option === "NotNull") column.notNull = true;
    else if (option === "Default") column.hasDefault = true;
    else if (option === "Generated") column.generated = true;
    else if (option === "PrimaryKey") column.primaryKey = true;
    else if (option === "Unique") unique = true;
    else if (option === "ForeignKey") foreignKey = true;
    else if (option === "DialectSpecific" && isAutoIncrement(body)) column.generated = true;
    else if (!IGNORED_COLUMN_OPTIONS.has(option)) unclaimed(`the column option ${option}`);
  }
  if (column.primaryKey) {
    column.notNull = true;
    addKey(table, "PRIMARY KEY", undefined, [name], false, facts, inCreateTable);
  }
  if (unique) addKey(table, "UNIQUE", undefined, [name], false, facts, inCreateTable);
  if (foreignKey) facts.constraints.push({ table, type: "FOREIGN KEY", notValid: false, inCreateTable });
  return column;
}

function isAutoIncrement(tokens: unknown): boolean {
  return Array.isArray(tokens) && tokens.length === 1 && node(node(tokens[0])?.Word)?.keyword === "AUTO_INCREMENT";
}

/** A table element other than a column: an index (KEY, INDEX, FULLTEXT …) or a constraint. */
function constraintFacts(table: TableRef, constraint: Tree, facts: StatementFacts, inCreateTable: boolean): void {
  const [kind, value] = variantOf(constraint);
  const body = node(value) ?? {};
  const name = body.name == null ? undefined : identName(body.name);
  switch (kind) {
    case "Index":
    case "FulltextOrSpatial": {
      const indexName = kind === "Index" ? name : body.opt_index_name == null ? undefined : identName(body.opt_index_name);
      facts.createdIndexes.push({ table, name: indexName, columns: keyParts(body.columns), unique: false, primary: false, declared: true, concurrently: false });
      break;
    }
    case "PrimaryKey":
      addKey(table, "PRIMARY KEY", name, keyParts(body.columns), false, facts, inCreateTable);
      break;
    case "Unique":
      addKey(table, "UNIQUE", body.index_name == null ? name : identName(body.index_name), keyParts(body.columns), true, facts, inCreateTable);
      break;
    case "ForeignKey":
      facts.constraints.push({ table, type: "FOREIGN KEY", name, notValid: false, inCreateTable });
      break;
    case "Check":
      facts.constraints.push({ table, type: "CHECK", name, notValid: false, inCreateTable });
      break;
    default:
      unclaimed(`the table element ${kind}`);
  }
}

function addKey(table: TableRef, type: "PRIMARY KEY" | "UNIQUE", name: string | undefined, columns: string[], declared: boolean, facts: StatementFacts, inCreateTable: boolean): void {
  facts.constraints.push({ table, type, name, notValid: false, inCreateTable });
  const primary = type === "PRIMARY KEY";
  facts.createdIndexes.push({ table, name: primary ? undefined : name, columns, unique: true, primary, declared, concurrently: false });
}

/** Index key parts: a column, a column with a prefix length (read as a call, `b(10)`), or an expression. */
function keyParts(columns: unknown): string[] {
  return nodes(columns).map((part) => {
    const [kind, body] = variantOf(node(node(part.column)?.expr) ?? "none");
    if (kind === "Identifier") return identName(body);
    const call = node(body);
    const args = nodes(node(node(call?.args)?.List)?.args);
    if (kind === "Function" && Array.isArray(call?.name) && call.name.length === 1 && args.length === 1) return identName(node(call.name[0])?.Identifier);
    return "(expression)";
  });
}

/** ENGINE= (upper case, as node-sql-parser gives it) and COMMENT= of a CREATE TABLE. */
function tableOptions(create: Tree): { engine?: string; comment?: string } {
  const [kind, list] = variantOf(create.table_options ?? "None");
  const found: { engine?: string; comment?: string } = {};
  if (kind === "None") return found;
  if (kind !== "Plain" || !Array.isArray(list)) return unclaimed(`${kind} table options`);
  for (const option of list) {
    const [name, body] = variantOf(option);
    if (name === "Comment") found.comment = variantOf(body)[1] as string;
    else if (name === "NamedParenthesizedList" && identName(node(body)?.key).toUpperCase() === "ENGINE") found.engine = identName(node(body)?.name).toUpperCase();
  }
  if (create.comment != null) unclaimed("a table comment outside the table options");
  return found;
}
