// The second MySQL adapter, part one: the facts of one statement from
// sqlparser-rs's tree (@guanmingchiu/sqlparser-ts), the same facts as
// mysql-facts.ts reads from node-sql-parser's, for the statement kinds the
// rules need. Any other kind or shape is "not mine" (undefined): the caller
// then parses the statement with node-sql-parser (mysql-parser.ts).
// Table definitions: mysql-rs-ddl.ts.
import { emptyFacts, type StatementFacts, type StatementKind, type TableRef } from "./facts.ts";
import { walkTree, type Tree } from "./mysql-nodes.ts";
import { rsAlterTableFacts, rsCreateIndexFacts, rsCreateTableFacts } from "./mysql-rs-ddl.ts";
import { identName, node, nodes, simpleName, stringValue, tableRef, Unclaimed, unclaimed, variantOf } from "./mysql-rs-nodes.ts";

/** Source positions, which the walk of queryFacts need not enter. */
const SPANS: ReadonlySet<string> = new Set(["span"]);
/** Text without any of these needs no walk of its tree (what queryFacts looks for is written with one of them). */
const WALK_NEEDED = /\*|like|::/i;

/** The facts of one statement (its text and sqlparser-rs's tree), or undefined when the adapter does not handle it. */
export function mysqlRsFacts(statement: unknown, text: string): StatementFacts | undefined {
  try {
    const [kind, body] = variantOf(statement);
    const facts = kind === "RenameTable" ? renameFacts(body) : statementFacts(kind, node(body) ?? {});
    if (WALK_NEEDED.test(text)) queryFacts(body, facts);
    return facts;
  } catch (error) {
    if (error instanceof Unclaimed) return undefined;
    throw error;
  }
}

function statementFacts(kind: string, body: Tree): StatementFacts {
  switch (kind) {
    case "CreateTable":
      return withFacts("CREATE_TABLE", "DDL", (facts) => rsCreateTableFacts(body, facts));
    case "CreateIndex":
      return withFacts("CREATE_INDEX", "DDL", (facts) => rsCreateIndexFacts(body, facts));
    case "AlterTable":
      return withFacts("ALTER_TABLE", "DDL", (facts) => rsAlterTableFacts(body, facts));
    case "CreateView":
      return withFacts("CREATE_VIEW", "DDL", (facts) => facts.otherNames.push({ kind: "view", name: tableRef(body.name).name }));
    case "CreateDatabase":
      return withFacts("CREATE_DATABASE", "DDL", (facts) => facts.otherNames.push({ kind: "database", name: simpleName(body.db_name) }));
    case "CreateSchema": {
      const [form, name] = variantOf(body.schema_name);
      if (form !== "Simple") unclaimed("a schema with AUTHORIZATION");
      return withFacts("CREATE_SCHEMA", "DDL", (facts) => facts.otherNames.push({ kind: "schema", name: simpleName(name) }));
    }
    case "Drop":
      return dropFacts(body);
    case "Truncate":
      return withFacts("TRUNCATE", "DDL", (facts) => {
        facts.truncatedTables.push(...nodes(body.table_names).map((t) => tableRef(t.name)));
        facts.tables.push(...facts.truncatedTables);
      });
    case "Insert":
      return insertFacts(body);
    case "Update":
      return withFacts("UPDATE", "DML", (facts) => filteredFacts("UPDATE", [body.table], body, facts));
    case "Delete": {
      const [form, from] = variantOf(body.from);
      if (form !== "WithFromKeyword" || nodes(body.tables).length || body.using != null) unclaimed("a multi-table DELETE");
      return withFacts("DELETE", "DML", (facts) => filteredFacts("DELETE", from, body, facts));
    }
    case "Query":
      return withFacts("SELECT", "OTHER", (facts) => selectFacts(body, facts));
    case "StartTransaction":
      if (nodes(body.modes).length || body.modifier != null) unclaimed("a transaction with modes");
      return withFacts("BEGIN", "OTHER", (facts) => (facts.transaction = "BEGIN"));
    case "Commit":
    case "Rollback":
      if (body.chain === true || body.modifier != null || body.savepoint != null) unclaimed("COMMIT or ROLLBACK with options");
      return withFacts(kind.toUpperCase(), "OTHER", (facts) => (facts.transaction = kind === "Commit" ? "COMMIT" : "ROLLBACK"));
    case "Set":
      return withFacts("SET", "OTHER", (facts) => (facts.setting = settingOf(body)));
    default:
      return unclaimed(`a ${kind} statement`);
  }
}

function withFacts(sqlType: string, kind: StatementKind, fill: (facts: StatementFacts) => unknown): StatementFacts {
  const facts = emptyFacts(sqlType, kind);
  fill(facts);
  return facts;
}

/** RENAME TABLE a TO b, … (its body is the list of pairs). */
function renameFacts(pairs: unknown): StatementFacts {
  return withFacts("ALTER_TABLE", "DDL", (facts) => {
    for (const pair of nodes(pairs)) {
      facts.renamedTables.push({ from: tableRef(pair.old_name), to: tableRef(pair.new_name) });
      facts.tables.push(tableRef(pair.old_name));
    }
  });
}

function dropFacts(drop: Tree): StatementFacts {
  const names = Array.isArray(drop.names) ? drop.names : [];
  switch (drop.object_type) {
    case "Table":
      return withFacts("DROP_TABLE", "DDL", (facts) => {
        facts.droppedTables.push(...names.map(tableRef));
        facts.tables.push(...facts.droppedTables);
      });
    case "Database":
    case "Schema": {
      const kind = drop.object_type === "Schema" ? "SCHEMA" : "DATABASE";
      if (names.length !== 1) unclaimed("a DROP of several databases");
      return withFacts(`DROP_${kind}`, "DDL", (facts) => facts.droppedDatabases.push({ kind, name: simpleName(names[0]) }));
    }
    case "Index":
      if (names.length !== 1 || drop.table == null) unclaimed("a DROP INDEX without its table");
      return withFacts("DROP_INDEX", "DDL", (facts) => facts.droppedIndexes.push({ name: simpleName(names[0]), table: tableRef(drop.table) }));
    default:
      return unclaimed(`a DROP ${String(drop.object_type)}`);
  }
}

function insertFacts(insert: Tree): StatementFacts {
  const [form, name] = variantOf(insert.table);
  if (form !== "TableName") unclaimed("an INSERT into a table function");
  const table = tableRef(name);
  const replace = node(node(node(insert.insert_token)?.token)?.Word)?.keyword === "REPLACE";
  const source = node(node(insert.source)?.body);
  const rows = source && "Values" in source ? nodes(node(source.Values)?.rows).length : 0;
  return withFacts(replace ? "REPLACE" : "INSERT", "DML", (facts) => {
    facts.insert = { table, valuesRows: rows, columnList: nodes(insert.assignments).length > 0 || (Array.isArray(insert.columns) && insert.columns.length > 0) };
    facts.tables.push(table);
  });
}

/** UPDATE and DELETE of one table (no joins) and whether they have a WHERE clause. */
function filteredFacts(verb: "UPDATE" | "DELETE", from: unknown, statement: Tree, facts: StatementFacts): void {
  const sources = Array.isArray(from) ? from : [];
  if (sources.length !== 1 || nodes(node(sources[0])?.joins).length) unclaimed(`a multi-table ${verb}`);
  if (verb === "UPDATE" && statement.from != null) unclaimed("an UPDATE … FROM");
  facts.tables.push(relationTable(node(sources[0])?.relation));
  facts.filtered = { verb, table: facts.tables[0], hasWhere: statement.selection != null };
}

/** A table in FROM; anything else (a subquery, a table function) is not handled. */
function relationTable(relation: unknown): TableRef {
  const [kind, body] = variantOf(relation);
  return kind === "Table" && node(body)?.args == null ? tableRef(node(body)?.name) : unclaimed(`a ${kind} in FROM`);
}

/** SELECT (and each branch of a UNION) from a table needs a WHERE clause. */
function selectFacts(query: Tree, facts: StatementFacts): void {
  if (query.with != null) unclaimed("a query with WITH");
  let fromBranches = 0;
  let filteredBranches = 0;
  for (const branch of selectBranches(query.body)) {
    const from = nodes(branch.from);
    if (!from.length) continue;
    fromBranches++;
    if (branch.selection != null) filteredBranches++;
    for (const source of from) facts.tables.push(relationTable(source.relation), ...nodes(source.joins).map((join) => relationTable(join.relation)));
  }
  if (fromBranches) facts.filtered = { verb: "SELECT", table: facts.tables[0], hasWhere: filteredBranches === fromBranches };
}

/** The SELECTs of a query body, left to right through UNION and the like. */
function selectBranches(body: unknown): Tree[] {
  const [kind, value] = variantOf(body);
  const branch = node(value) ?? {};
  if (kind === "Select") return [branch];
  if (kind === "SetOperation") return [...selectBranches(branch.left), ...selectBranches(branch.right)];
  return unclaimed(`a ${kind} query body`);
}

/** SET name = value, for one plain system variable. */
function settingOf(set: Tree): StatementFacts["setting"] {
  const [form, value] = variantOf(set);
  const assignment = node(value) ?? {};
  if (form !== "SingleAssignment" || assignment.scope != null) unclaimed("a SET other than name = value");
  const variable = Array.isArray(assignment.variable) && assignment.variable.length === 1 ? simpleName(assignment.variable) : unclaimed("a qualified variable");
  if (variable.startsWith("@")) unclaimed("a user variable");
  const values = Array.isArray(assignment.values) ? assignment.values : [];
  if (values.length !== 1) unclaimed("a SET of several values");
  return { name: variable.toLowerCase(), value: settingValue(values[0]).toLowerCase() };
}

function settingValue(expr: unknown): string {
  const [kind, body] = variantOf(expr);
  if (kind === "Identifier" && identName(body).toUpperCase() === "DEFAULT") return "default";
  const text = stringValue(expr);
  if (text !== undefined) return text;
  const [valueKind, number] = variantOf(node(node(body)?.value) ?? "none");
  if (kind === "Value" && valueKind === "Number" && Array.isArray(number)) return String(number[0]);
  return unclaimed("a SET value other than a literal");
}

/** `SELECT *` (or `t.*`) and LIKE patterns that start with a wildcard, anywhere in the statement; a PostgreSQL `::` cast is not MySQL. */
function queryFacts(root: unknown, facts: StatementFacts): void {
  walkTree(root, (tree) => {
    if (node(tree.Cast)?.kind === "DoubleColon") unclaimed("a :: cast");
    if (Array.isArray(tree.projection)) {
      if (tree.projection.some((item) => node(item) && ("Wildcard" in node(item)! || "QualifiedWildcard" in node(item)!))) facts.selectStar = true;
    } else if (tree.Like != null) {
      const pattern = stringValue(node(tree.Like)?.pattern);
      if (pattern?.startsWith("%")) facts.leadingWildcards.push(pattern);
    }
  }, SPANS);
}
