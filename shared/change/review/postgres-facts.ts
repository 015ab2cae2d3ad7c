// PostgreSQL adapter, part one: the facts of one statement from its
// libpg-query tree — its type and kind, and the facts of DML, transaction
// control, SET, DROP and the like. Table definitions: postgres-ddl.ts.
import type {
  CommentStmt,
  CreateTableAsStmt,
  DeleteStmt,
  DropStmt,
  InsertStmt,
  Node,
  RenameStmt,
  SelectStmt,
  TransactionStmt,
  TruncateStmt,
  UpdateStmt,
  VariableSetStmt,
} from "@pgsql/types";
import { emptyFacts, type StatementFacts, type StatementKind } from "./facts.ts";
import { alterTableFacts, createIndexFacts, createTableFacts } from "./postgres-ddl.ts";
import { constantText, nodeAs, nodeType, names, stringValue, tableOf, tableOfNames, walkNodes } from "./postgres-nodes.ts";

/** Statement types whose name does not follow from the node type (CreateSeqStmt → CREATE_SEQ would be wrong). */
const SQL_TYPES: Record<string, string> = {
  CreateStmt: "CREATE_TABLE",
  IndexStmt: "CREATE_INDEX",
  InsertStmt: "INSERT",
  UpdateStmt: "UPDATE",
  DeleteStmt: "DELETE",
  MergeStmt: "MERGE",
  SelectStmt: "SELECT",
  TruncateStmt: "TRUNCATE",
  VariableSetStmt: "SET",
  VariableShowStmt: "SHOW",
  CommentStmt: "COMMENT",
  ViewStmt: "CREATE_VIEW",
  CreateSchemaStmt: "CREATE_SCHEMA",
  CreateSeqStmt: "CREATE_SEQUENCE",
  AlterSeqStmt: "ALTER_SEQUENCE",
  CreatedbStmt: "CREATE_DATABASE",
  DropdbStmt: "DROP_DATABASE",
  CreateExtensionStmt: "CREATE_EXTENSION",
  CreateTrigStmt: "CREATE_TRIGGER",
  CreateEnumStmt: "CREATE_TYPE",
  CompositeTypeStmt: "CREATE_TYPE",
  CreateDomainStmt: "CREATE_DOMAIN",
  AlterEnumStmt: "ALTER_TYPE",
  RefreshMatViewStmt: "REFRESH_MATERIALIZED_VIEW",
  DoStmt: "DO",
  ExplainStmt: "EXPLAIN",
  CopyStmt: "COPY",
  CallStmt: "CALL",
  LockStmt: "LOCK",
  VacuumStmt: "VACUUM",
};

const DDL_PREFIXES = ["Create", "Alter", "Drop", "Rename", "Comment", "Define", "Composite", "Index", "Truncate", "View"];
const DML_TYPES = new Set(["InsertStmt", "UpdateStmt", "DeleteStmt", "MergeStmt", "CopyStmt"]);

/** The facts of one parsed statement. */
export function postgresFacts(stmt: Node): StatementFacts {
  const type = nodeType(stmt);
  const facts = emptyFacts(sqlTypeOf(type, stmt), kindOf(type));
  switch (type) {
    case "CreateStmt":
      createTableFacts(nodeAs(stmt, type)!, facts);
      break;
    case "CreateTableAsStmt":
      createTableAsFacts(nodeAs(stmt, type)!, facts);
      break;
    case "AlterTableStmt":
      alterTableFacts(nodeAs(stmt, type)!, facts);
      break;
    case "IndexStmt":
      createIndexFacts(nodeAs(stmt, type)!, facts);
      break;
    case "InsertStmt":
      insertFacts(nodeAs(stmt, type)!, facts);
      break;
    case "UpdateStmt":
    case "DeleteStmt": {
      const body = nodeAs<UpdateStmt | DeleteStmt>(stmt, type)!;
      const table = tableOf(body.relation);
      facts.tables.push(table);
      facts.filtered = { verb: type === "UpdateStmt" ? "UPDATE" : "DELETE", table, hasWhere: body.whereClause !== undefined };
      break;
    }
    case "SelectStmt":
      selectFacts(nodeAs(stmt, type)!, facts);
      break;
    case "TransactionStmt":
      facts.transaction = transactionOf(nodeAs<TransactionStmt>(stmt, type)!);
      break;
    case "VariableSetStmt":
      facts.setting = settingOf(nodeAs(stmt, type)!);
      break;
    case "DropStmt":
      dropFacts(nodeAs(stmt, type)!, facts);
      break;
    case "DropdbStmt":
      facts.droppedDatabases.push({ kind: "DATABASE", name: nodeAs<{ dbname?: string }>(stmt, type)!.dbname ?? "" });
      break;
    case "TruncateStmt":
      for (const relation of nodeAs<TruncateStmt>(stmt, type)!.relations ?? []) facts.truncatedTables.push(tableOf(nodeAs(relation, "RangeVar")));
      facts.tables.push(...facts.truncatedTables);
      break;
    case "RenameStmt":
      renameFacts(nodeAs(stmt, type)!, facts);
      break;
    case "CommentStmt": {
      const body = nodeAs<CommentStmt>(stmt, type)!;
      if (body.objtype === "OBJECT_TABLE" && body.comment) facts.commentedTables.push(tableOfNames(names(nodeAs<{ items?: Node[] }>(body.object, "List")?.items)));
      break;
    }
    default:
      otherNameFacts(type, stmt, facts);
  }
  queryFacts(stmt, facts);
  return facts;
}

function sqlTypeOf(type: string, stmt: Node): string {
  const body = nodeAs<Record<string, unknown>>(stmt, type) ?? {};
  const objectName = (objectType: unknown) => String(objectType ?? "").replace(/^OBJECT_/, "");
  switch (type) {
    case "AlterTableStmt":
      return `ALTER_${objectName(body.objtype)}`;
    case "DropStmt":
      return `DROP_${objectName(body.removeType)}`;
    case "RenameStmt": {
      const renamed = body.renameType === "OBJECT_COLUMN" || body.renameType === "OBJECT_TABCONSTRAINT" ? body.relationType : body.renameType;
      return `ALTER_${objectName(renamed)}`;
    }
    case "CreateTableAsStmt":
      return body.objtype === "OBJECT_MATVIEW" ? "CREATE_MATERIALIZED_VIEW" : "CREATE_TABLE";
    case "CreateFunctionStmt":
      return body.is_procedure ? "CREATE_PROCEDURE" : "CREATE_FUNCTION";
    case "TransactionStmt":
      return String(body.kind ?? "TRANSACTION").replace(/^TRANS_STMT_/, "");
    case "GrantStmt":
      return body.is_grant ? "GRANT" : "REVOKE";
  }
  return SQL_TYPES[type] ?? type.replace(/Stmt$/, "").replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

function kindOf(type: string): StatementKind {
  if (DML_TYPES.has(type)) return "DML";
  return DDL_PREFIXES.some((prefix) => type.startsWith(prefix)) ? "DDL" : "OTHER";
}

function createTableAsFacts(body: CreateTableAsStmt, facts: StatementFacts): void {
  const table = tableOf(body.into?.rel);
  if (body.objtype === "OBJECT_MATVIEW") facts.otherNames.push({ kind: "view", name: table.name });
  else facts.createTable = { table, columns: [], hasPrimaryKey: false, derived: true, hasComment: false };
  facts.tables.push(table);
}

function insertFacts(body: InsertStmt, facts: StatementFacts): void {
  const table = tableOf(body.relation);
  const values = nodeAs<SelectStmt>(body.selectStmt, "SelectStmt")?.valuesLists?.length ?? 0;
  facts.insert = { table, valuesRows: values, columnList: (body.cols?.length ?? 0) > 0 };
  facts.tables.push(table);
}

/** SELECT (and each branch of UNION/INTERSECT/EXCEPT) from a table needs a WHERE clause. */
function selectFacts(body: SelectStmt, facts: StatementFacts): void {
  const branches: SelectStmt[] = [];
  const collect = (select: SelectStmt | undefined) => {
    if (!select) return;
    if (select.op && select.op !== "SETOP_NONE") {
      collect(select.larg);
      collect(select.rarg);
    } else branches.push(select);
  };
  collect(body);
  const fromTables = branches.filter((b) => b.fromClause?.length);
  for (const branch of fromTables) for (const from of branch.fromClause!) if ("RangeVar" in from) facts.tables.push(tableOf(from.RangeVar));
  if (fromTables.length) facts.filtered = { verb: "SELECT", table: facts.tables[0], hasWhere: fromTables.every((b) => b.whereClause !== undefined) };
  if (body.intoClause?.rel) facts.createTable = { table: tableOf(body.intoClause.rel), columns: [], hasPrimaryKey: false, derived: true, hasComment: false };
}

function transactionOf(body: TransactionStmt): StatementFacts["transaction"] {
  switch (body.kind) {
    case "TRANS_STMT_BEGIN":
    case "TRANS_STMT_START":
      return "BEGIN";
    case "TRANS_STMT_COMMIT":
    case "TRANS_STMT_COMMIT_PREPARED":
    case "TRANS_STMT_PREPARE":
      return "COMMIT";
    case "TRANS_STMT_ROLLBACK":
    case "TRANS_STMT_ROLLBACK_PREPARED":
      return "ROLLBACK";
    default:
      return undefined;
  }
}

function settingOf(body: VariableSetStmt): StatementFacts["setting"] {
  const name = (body.name ?? "").toLowerCase();
  if (body.kind !== "VAR_SET_VALUE") return { name, value: "default" };
  return { name, value: (body.args ?? []).map((arg) => constantText(arg) ?? "").join(", ").toLowerCase() };
}

function dropFacts(body: DropStmt, facts: StatementFacts): void {
  const objects = body.objects ?? [];
  const qualified = (object: Node) => names(nodeAs<{ items?: Node[] }>(object, "List")?.items);
  switch (body.removeType) {
    case "OBJECT_TABLE":
      for (const object of objects) facts.droppedTables.push(tableOfNames(qualified(object)));
      facts.tables.push(...facts.droppedTables);
      break;
    case "OBJECT_INDEX":
      for (const object of objects) {
        const index = tableOfNames(qualified(object));
        facts.droppedIndexes.push(index.schema ? { name: index.name, schema: index.schema } : { name: index.name });
      }
      break;
    case "OBJECT_SCHEMA":
      for (const object of objects) facts.droppedDatabases.push({ kind: "SCHEMA", name: stringValue(object) ?? "" });
      break;
  }
}

function renameFacts(body: RenameStmt, facts: StatementFacts): void {
  const table = tableOf(body.relation);
  const to = body.newname ?? "";
  if (body.renameType === "OBJECT_TABLE") {
    facts.renamedTables.push({ from: table, to: table.schema ? { schema: table.schema, name: to } : { name: to } });
    facts.tables.push(table);
  } else if (body.renameType === "OBJECT_COLUMN" && body.relationType === "OBJECT_TABLE") {
    facts.renamedColumns.push({ table, from: body.subname ?? "", to });
    facts.tables.push(table);
  } else if (body.renameType === "OBJECT_INDEX") facts.otherNames.push({ kind: "index", name: to });
}

/** Names of other objects the statement creates. */
function otherNameFacts(type: string, stmt: Node, facts: StatementFacts): void {
  const body = nodeAs<Record<string, unknown>>(stmt, type) ?? {};
  const relationName = (key: string) => (body[key] as { relname?: string } | undefined)?.relname;
  const named: Record<string, [string, string | undefined]> = {
    ViewStmt: ["view", relationName("view")],
    CreateSchemaStmt: ["schema", body.schemaname as string | undefined],
    CreatedbStmt: ["database", body.dbname as string | undefined],
    CreateSeqStmt: ["sequence", relationName("sequence")],
    CreateFunctionStmt: ["function", names(body.funcname as Node[] | undefined).at(-1)],
  };
  const [kind, name] = named[type] ?? [];
  if (kind && name) facts.otherNames.push({ kind, name });
}

/** `SELECT *` and LIKE patterns that start with a wildcard, anywhere in the statement. */
function queryFacts(stmt: Node, facts: StatementFacts): void {
  walkNodes(stmt, (type, body) => {
    if (type === "SelectStmt") {
      for (const target of (body as SelectStmt).targetList ?? []) {
        const fields = nodeAs<{ fields?: Node[] }>(nodeAs<{ val?: Node }>(target, "ResTarget")?.val, "ColumnRef")?.fields;
        if (fields?.length && "A_Star" in fields.at(-1)!) facts.selectStar = true;
      }
    } else if (type === "A_Expr" && (body.kind === "AEXPR_LIKE" || body.kind === "AEXPR_ILIKE")) {
      const pattern = constantText(body.rexpr as Node | undefined);
      if (pattern?.startsWith("%")) facts.leadingWildcards.push(pattern);
    }
  });
}
