// MySQL adapter, part one: the facts of one statement from node-sql-parser's
// tree — its type and kind, and the facts of DML, transaction control, SET,
// DROP and the like. Table definitions: mysql-ddl.ts.
import { emptyFacts, type StatementFacts, type StatementKind } from "./facts.ts";
import { alterTableFacts, createIndexFacts, createTableFacts } from "./mysql-ddl.ts";
import { child, columnName, list, literalText, tableOf, text, walkTree, type Tree } from "./mysql-nodes.ts";

const DDL_TYPES = new Set(["create", "alter", "drop", "truncate", "rename"]);
const DML_TYPES = new Set(["insert", "replace", "update", "delete", "load_data"]);
const TRANSACTIONS: Record<string, StatementFacts["transaction"]> = { begin: "BEGIN", start: "BEGIN", commit: "COMMIT", rollback: "ROLLBACK" };

export function mysqlFacts(ast: Tree): StatementFacts {
  const type = text(ast, "type") ?? "";
  const keyword = (text(ast, "keyword") ?? "").toLowerCase();
  const facts = emptyFacts(sqlTypeOf(ast, type, keyword), kindOf(type));
  switch (type) {
    case "create":
      if (keyword === "table") createTableFacts(ast, facts);
      else if (keyword === "index") createIndexFacts(ast, facts);
      else otherNameFacts(ast, keyword, facts);
      break;
    case "alter":
      if (list(ast, "table").length) alterTableFacts(ast, facts);
      break;
    case "drop":
      dropFacts(ast, keyword, facts);
      break;
    case "truncate":
      for (const table of list(ast, "name")) facts.truncatedTables.push(tableOf(table));
      facts.tables.push(...facts.truncatedTables);
      break;
    case "rename":
      for (const pair of Array.isArray(ast.table) ? ast.table : []) {
        if (!Array.isArray(pair) || pair.length < 2) continue;
        facts.renamedTables.push({ from: tableOf(pair[0] as Tree), to: tableOf(pair[1] as Tree) });
        facts.tables.push(tableOf(pair[0] as Tree));
      }
      break;
    case "insert":
    case "replace": {
      const table = tableOf(list(ast, "table")[0]);
      const values = child(ast, "values");
      const rows = text(values, "type") === "values" ? list(values, "values").length : 0;
      facts.insert = { table, valuesRows: rows, columnList: list(ast, "set").length > 0 || (Array.isArray(ast.columns) && ast.columns.length > 0) };
      facts.tables.push(table);
      break;
    }
    case "update":
    case "delete": {
      const tables = list(ast, "table").length ? list(ast, "table") : list(ast, "from");
      facts.tables.push(...tables.map(tableOf));
      facts.filtered = { verb: type === "update" ? "UPDATE" : "DELETE", table: facts.tables[0], hasWhere: ast.where != null };
      break;
    }
    case "select":
      selectFacts(ast, facts);
      break;
    case "transaction":
      facts.transaction = TRANSACTIONS[transactionAction(ast)];
      break;
    case "set": {
      const assignment = list(ast, "expr")[0];
      const name = text(child(assignment, "left"), "name");
      if (name) facts.setting = { name: name.toLowerCase(), value: settingValue(child(assignment, "right")).toLowerCase() };
      break;
    }
  }
  queryFacts(ast, facts);
  return facts;
}

/** A SET's value: a literal's text, or "default" for DEFAULT (which the grammar reads as a column named DEFAULT). */
function settingValue(right: Tree | undefined): string {
  if (right?.type === "column_ref" && columnName(right).toUpperCase() === "DEFAULT") return "default";
  return literalText(right) ?? text(right, "value") ?? "";
}

function sqlTypeOf(ast: Tree, type: string, keyword: string): string {
  switch (type) {
    case "create":
    case "drop":
      return `${type}_${keyword || "object"}`.replace(/\s+/g, "_").toUpperCase();
    case "alter":
    case "rename":
      return list(ast, "table").length || type === "rename" ? "ALTER_TABLE" : `ALTER_${keyword || "object"}`.toUpperCase();
    case "transaction": {
      const action = transactionAction(ast);
      return TRANSACTIONS[action] ?? (action.toUpperCase() || "TRANSACTION");
    }
    default:
      return type.toUpperCase();
  }
}

function kindOf(type: string): StatementKind {
  if (DDL_TYPES.has(type)) return "DDL";
  return DML_TYPES.has(type) ? "DML" : "OTHER";
}

function transactionAction(ast: Tree): string {
  return (text(child(child(ast, "expr"), "action"), "value") ?? "").toLowerCase();
}

/** SELECT (and each branch of a UNION) from a table needs a WHERE clause. */
function selectFacts(ast: Tree, facts: StatementFacts): void {
  let fromBranches = 0;
  let filteredBranches = 0;
  for (let branch: Tree | undefined = ast; branch; branch = child(branch, "_next")) {
    const from = list(branch, "from");
    if (!from.length) continue;
    fromBranches++;
    if (branch.where != null) filteredBranches++;
    facts.tables.push(...from.filter((f) => text(f, "table")).map(tableOf));
  }
  if (fromBranches) facts.filtered = { verb: "SELECT", table: facts.tables[0], hasWhere: filteredBranches === fromBranches };
}

function dropFacts(ast: Tree, keyword: string, facts: StatementFacts): void {
  if (keyword === "table") {
    facts.droppedTables.push(...list(ast, "name").map(tableOf));
    facts.tables.push(...facts.droppedTables);
  } else if (keyword === "database" || keyword === "schema") {
    const name = literalText(ast.name) ?? text(list(ast, "name")[0], "table") ?? "";
    facts.droppedDatabases.push({ kind: keyword === "schema" ? "SCHEMA" : "DATABASE", name });
  } else if (keyword === "index") {
    facts.droppedIndexes.push({ name: columnName(child(ast, "name")) || (literalText(ast.name) ?? ""), table: tableOf(child(ast, "table")) });
  }
}

/** Names of other objects the statement creates (views, databases, …). */
function otherNameFacts(ast: Tree, keyword: string, facts: StatementFacts): void {
  const schemaName = text(list(child(ast, "database"), "schema")[0], "value") ?? literalText(ast.database);
  const name = text(child(ast, "view"), "view") ?? schemaName ?? text(child(ast, "trigger"), "table");
  if (name) facts.otherNames.push({ kind: keyword, name });
}

/** `SELECT *` and LIKE patterns that start with a wildcard, anywhere in the statement. */
function queryFacts(ast: Tree, facts: StatementFacts): void {
  walkTree(ast, (node) => {
    if (node.type === "select") {
      if (node.columns === "*" || list(node, "columns").some((c) => columnName(child(c, "expr")) === "*")) facts.selectStar = true;
    } else if (node.type === "binary_expr" && /LIKE$/i.test(text(node, "operator") ?? "")) {
      const pattern = child(node, "right");
      const value = /string$/.test(text(pattern, "type") ?? "") ? text(pattern, "value") : undefined;
      if (value?.startsWith("%")) facts.leadingWildcards.push(value);
    }
  });
}
