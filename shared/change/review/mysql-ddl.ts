// MySQL adapter, part two: the facts of table definitions — CREATE TABLE,
// ALTER TABLE and CREATE INDEX — from node-sql-parser's tree.
import type { ColumnDef, StatementFacts, TableRef } from "./facts.ts";
import { child, columnName, keyPart, list, literalText, tableOf, text, typeOf, type Tree } from "./mysql-nodes.ts";

/** ALTER TABLE parts that do not copy the table (everything else on a column, the engine or the primary key does). */
const IN_PLACE_RESOURCES = new Set(["index", "table", "algorithm", "lock", "comment", "constraint"]);

export function createTableFacts(ast: Tree, facts: StatementFacts): void {
  const table = tableOf(list(ast, "table")[0]);
  const options = list(ast, "table_options");
  const option = (name: string) => options.find((o) => text(o, "keyword")?.toLowerCase() === name)?.value;
  const engine = literalText(option("engine"));
  const created: NonNullable<StatementFacts["createTable"]> = {
    table,
    columns: [],
    hasPrimaryKey: false,
    derived: ast.like != null || ast.query_expr != null,
    engine,
    hasComment: !!literalText(option("comment")),
  };
  facts.createTable = created;
  facts.tables.push(table);
  if (engine) facts.tableEngine = { table, engine };
  for (const definition of list(ast, "create_definitions")) {
    if (definition.resource === "column") created.columns.push(columnFacts(table, definition, facts, true));
    else tableElementFacts(table, definition, facts, true);
  }
  created.hasPrimaryKey = created.columns.some((c) => c.primaryKey) || facts.constraints.some((c) => c.type === "PRIMARY KEY");
}

export function createIndexFacts(ast: Tree, facts: StatementFacts): void {
  const table = tableOf(child(ast, "table"));
  facts.tables.push(table);
  facts.createdIndexes.push({
    table,
    name: text(ast, "index"),
    columns: list(ast, "index_columns").map(keyPart),
    unique: text(ast, "index_type")?.toLowerCase() === "unique",
    primary: false,
    declared: true,
    concurrently: false,
  });
}

export function alterTableFacts(ast: Tree, facts: StatementFacts): void {
  const table = tableOf(list(ast, "table")[0]);
  facts.tables.push(table);
  const actions = list(ast, "expr");
  facts.alterTable = { table, algorithmOrLock: actions.some((a) => a.resource === "algorithm" || a.resource === "lock") };
  const instant = actions.some((a) => a.resource === "algorithm" && text(a, "algorithm")?.toUpperCase() === "INSTANT");
  if (!instant && actions.some((a) => !IN_PLACE_RESOURCES.has(text(a, "resource") ?? ""))) facts.rewrites = table;
  for (const action of actions) alterActionFacts(table, action, facts);
}

function alterActionFacts(table: TableRef, action: Tree, facts: StatementFacts): void {
  const verb = text(action, "action");
  switch (`${verb} ${text(action, "resource")}`) {
    case "add column":
      facts.addedColumns.push({ table, column: columnFacts(table, action, facts, false) });
      break;
    case "drop column":
      facts.droppedColumns.push({ table, column: columnName(child(action, "column")) });
      break;
    case "modify column":
    case "change column": {
      const column = columnFacts(table, action, facts, false);
      const from = verb === "change" ? columnName(child(action, "old_column")) : column.name;
      if (from !== column.name) facts.renamedColumns.push({ table, from, to: column.name });
      facts.typeChanges.push({ table, column: from, type: column.type, typeName: column.typeName, explicit: false });
      break;
    }
    case "rename column":
      facts.renamedColumns.push({ table, from: columnName(child(action, "old_column")), to: columnName(child(action, "column")) });
      break;
    case "add index":
    case "add constraint":
      tableElementFacts(table, child(action, "create_definitions") ?? action, facts, false);
      break;
    case "drop index":
      facts.droppedIndexes.push({ table, name: text(action, "index") ?? "" });
      break;
    case "drop constraint":
      facts.droppedIndexes.push({ table, name: text(action, "constraint") ?? "" });
      break;
    case "drop key":
      if (text(action, "keyword")?.toLowerCase() === "primary key") facts.droppedIndexes.push({ table, name: "PRIMARY" });
      break;
    case "rename table":
      facts.renamedTables.push({ from: table, to: { ...(table.schema ? { schema: table.schema } : {}), name: text(action, "table") ?? "" } });
      break;
    default:
      if (action.resource === "engine") facts.tableEngine = { table, engine: text(action, "engine") ?? "" };
      else if (action.resource === "comment" && literalText(action.comment)) facts.commentedTables.push(table);
  }
}

/** A column definition (CREATE TABLE element, ADD/MODIFY/CHANGE COLUMN) and the keys written on it. */
function columnFacts(table: TableRef, definition: Tree, facts: StatementFacts, inCreateTable: boolean): ColumnDef {
  const name = columnName(child(definition, "column"));
  const { type, typeName } = typeOf(child(definition, "definition"));
  const primaryKey = definition.primary_key != null;
  const column: ColumnDef = {
    name,
    type,
    typeName,
    notNull: text(child(definition, "nullable"), "type") === "not null" || primaryKey,
    hasDefault: definition.default_val != null,
    generated: definition.auto_increment != null || definition.generated != null,
    primaryKey,
  };
  if (primaryKey) addKey(table, "PRIMARY KEY", undefined, [name], false, facts, inCreateTable);
  if (definition.unique != null) addKey(table, "UNIQUE", undefined, [name], false, facts, inCreateTable);
  if (definition.reference_definition != null) facts.constraints.push({ table, type: "FOREIGN KEY", notValid: false, inCreateTable });
  return column;
}

/** A table element other than a column: an index (KEY, INDEX, FULLTEXT …) or a constraint. */
function tableElementFacts(table: TableRef, definition: Tree, facts: StatementFacts, inCreateTable: boolean): void {
  const keys = list(definition, "definition").map(keyPart);
  if (definition.resource === "index") {
    facts.createdIndexes.push({ table, name: text(definition, "index"), columns: keys, unique: false, primary: false, declared: true, concurrently: false });
    return;
  }
  const kind = (text(definition, "constraint_type") ?? "").toLowerCase();
  const name = text(definition, "index") ?? text(definition, "constraint");
  if (kind === "primary key") addKey(table, "PRIMARY KEY", text(definition, "constraint"), keys, false, facts, inCreateTable);
  else if (kind.startsWith("unique")) addKey(table, "UNIQUE", name, keys, true, facts, inCreateTable);
  else if (kind === "foreign key") facts.constraints.push({ table, type: "FOREIGN KEY", name: text(definition, "constraint"), notValid: false, inCreateTable });
  else if (kind === "check") facts.constraints.push({ table, type: "CHECK", name: text(definition, "constraint"), notValid: false, inCreateTable });
}

function addKey(table: TableRef, type: "PRIMARY KEY" | "UNIQUE", name: string | undefined, columns: string[], declared: boolean, facts: StatementFacts, inCreateTable: boolean): void {
  facts.constraints.push({ table, type, name, notValid: false, inCreateTable });
  const primary = type === "PRIMARY KEY";
  facts.createdIndexes.push({ table, name: primary ? undefined : name, columns, unique: true, primary, declared, concurrently: false });
}
