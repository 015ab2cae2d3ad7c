// PostgreSQL adapter, part two: the facts of table definitions — CREATE
// TABLE, ALTER TABLE and CREATE INDEX — from libpg-query's tree.
import type { AlterTableCmd, AlterTableStmt, ColumnDef as PgColumnDef, Constraint, CreateStmt, IndexElem, IndexStmt, Node } from "@pgsql/types";
import type { ColumnDef, ConstraintType, StatementFacts, TableRef } from "./facts.ts";
import { nodeAs, names, tableOf, typeOf, walkNodes } from "./postgres-nodes.ts";

/** Functions whose value differs per row: a column added with such a default rewrites the table. */
const VOLATILE_FUNCTIONS = new Set(["nextval", "random", "clock_timestamp", "timeofday", "gen_random_uuid", "uuid_generate_v1", "uuid_generate_v4", "uuidv4", "uuidv7"]);
const SERIAL_TYPES = new Set(["serial", "bigserial", "smallserial"]);
/** ALTER TABLE actions that copy every row. */
const REWRITING_COMMANDS = new Set(["AT_AlterColumnType", "AT_SetLogged", "AT_SetUnLogged", "AT_SetAccessMethod", "AT_SetTableSpace"]);

const CONSTRAINT_TYPES: Partial<Record<string, ConstraintType>> = {
  CONSTR_PRIMARY: "PRIMARY KEY",
  CONSTR_UNIQUE: "UNIQUE",
  CONSTR_FOREIGN: "FOREIGN KEY",
  CONSTR_CHECK: "CHECK",
  CONSTR_EXCLUSION: "EXCLUDE",
};

export function createTableFacts(body: CreateStmt, facts: StatementFacts): void {
  const table = tableOf(body.relation);
  const created: NonNullable<StatementFacts["createTable"]> = {
    table,
    columns: [],
    hasPrimaryKey: false,
    derived: body.partbound !== undefined || body.ofTypename !== undefined,
    hasComment: false,
  };
  facts.createTable = created;
  facts.tables.push(table);
  for (const element of body.tableElts ?? []) {
    const columnNode = nodeAs<PgColumnDef>(element, "ColumnDef");
    const constraint = nodeAs<Constraint>(element, "Constraint");
    if (columnNode) created.columns.push(columnFacts(table, columnNode, facts, true).column);
    else if (constraint) addConstraint(table, constraint, [], facts, true);
    else if ("TableLikeClause" in element) created.derived = true;
  }
  created.hasPrimaryKey = created.columns.some((c) => c.primaryKey) || facts.constraints.some((c) => c.type === "PRIMARY KEY");
}

export function alterTableFacts(body: AlterTableStmt, facts: StatementFacts): void {
  const table = tableOf(body.relation);
  facts.tables.push(table);
  if (body.objtype !== "OBJECT_TABLE") return;
  facts.alterTable = { table, algorithmOrLock: false };
  for (const node of body.cmds ?? []) {
    const cmd = nodeAs<AlterTableCmd>(node, "AlterTableCmd");
    if (!cmd) continue;
    if (REWRITING_COMMANDS.has(cmd.subtype ?? "")) facts.rewrites = table;
    switch (cmd.subtype) {
      case "AT_AddColumn": {
        const added = columnFacts(table, nodeAs<PgColumnDef>(cmd.def, "ColumnDef") ?? {}, facts, false);
        facts.addedColumns.push({ table, column: added.column });
        if (added.fillsEachRow) facts.rewrites = table;
        break;
      }
      case "AT_DropColumn":
        facts.droppedColumns.push({ table, column: cmd.name ?? "" });
        break;
      case "AT_AlterColumnType":
        facts.typeChanges.push({ table, column: cmd.name ?? "", ...typeOf(nodeAs<PgColumnDef>(cmd.def, "ColumnDef")?.typeName), explicit: true });
        break;
      case "AT_AddConstraint": {
        const constraint = nodeAs<Constraint>(cmd.def, "Constraint");
        if (constraint) addConstraint(table, constraint, [], facts, false);
        break;
      }
      case "AT_DropConstraint":
        facts.droppedIndexes.push({ table, name: cmd.name ?? "" });
        break;
    }
  }
}

export function createIndexFacts(body: IndexStmt, facts: StatementFacts): void {
  const table = tableOf(body.relation);
  facts.tables.push(table);
  facts.createdIndexes.push({
    table,
    name: body.idxname,
    columns: (body.indexParams ?? []).map((p) => indexKey(nodeAs<IndexElem>(p, "IndexElem"))),
    unique: body.unique === true,
    primary: body.primary === true,
    declared: true,
    concurrently: body.concurrent === true,
  });
}

function indexKey(elem: IndexElem | undefined): string {
  return elem?.name ?? "(expression)";
}

/** A column definition and the constraints written on it. */
function columnFacts(table: TableRef, node: PgColumnDef, facts: StatementFacts, inCreateTable: boolean): { column: ColumnDef; fillsEachRow: boolean } {
  const name = node.colname ?? "";
  const { type, typeName } = typeOf(node.typeName);
  const serial = SERIAL_TYPES.has(typeName);
  const column: ColumnDef = { name, type, typeName, notNull: serial, hasDefault: serial, generated: serial, primaryKey: false };
  let fillsEachRow = serial;
  for (const constraintNode of node.constraints ?? []) {
    const constraint = nodeAs<Constraint>(constraintNode, "Constraint");
    if (!constraint) continue;
    switch (constraint.contype) {
      case "CONSTR_NOTNULL":
        column.notNull = true;
        break;
      case "CONSTR_DEFAULT":
        column.hasDefault = true;
        if (callsVolatile(constraint.raw_expr)) fillsEachRow = true;
        break;
      case "CONSTR_IDENTITY":
      case "CONSTR_GENERATED":
        column.generated = true;
        column.notNull ||= constraint.contype === "CONSTR_IDENTITY";
        fillsEachRow = true;
        break;
      case "CONSTR_PRIMARY":
        column.primaryKey = true;
        column.notNull = true;
        addConstraint(table, constraint, [name], facts, inCreateTable);
        break;
      default:
        addConstraint(table, constraint, [name], facts, inCreateTable);
    }
  }
  return { column, fillsEachRow };
}

/** A PRIMARY KEY, UNIQUE, FOREIGN KEY, CHECK or EXCLUDE constraint; keys default to the column it is written on. */
function addConstraint(table: TableRef, constraint: Constraint, columnKeys: string[], facts: StatementFacts, inCreateTable: boolean): void {
  const type = CONSTRAINT_TYPES[constraint.contype ?? ""];
  if (!type) return;
  facts.constraints.push({ table, type, name: constraint.conname, notValid: constraint.skip_validation === true, inCreateTable });
  const keys = constraint.keys?.length ? names(constraint.keys) : columnKeys;
  if ((type === "PRIMARY KEY" || type === "UNIQUE") && !constraint.indexname) {
    facts.createdIndexes.push({ table, name: constraint.conname, columns: keys, unique: true, primary: type === "PRIMARY KEY", declared: false, concurrently: false });
  }
}

function callsVolatile(expression: Node | undefined): boolean {
  let volatile = false;
  walkNodes(expression, (type, body) => {
    if (type === "FuncCall" && VOLATILE_FUNCTIONS.has(names(body.funcname as Node[] | undefined).at(-1) ?? "")) volatile = true;
  });
  return volatile;
}
