// Whether a PostgreSQL statement is a read (contract §14.3), from the parse
// tree of PostgreSQL's own parser (libpg-query): SELECT (TABLE, VALUES and
// WITH … SELECT are SELECTs), EXPLAIN of one, or SHOW — with nothing in the
// tree that writes (a data-modifying WITH), locks rows (FOR UPDATE, FOR
// SHARE …), stores its result (SELECT INTO) or calls a denied function.
// What the parser refuses is refused.
import { loadModule, parseSync } from "libpg-query";
import { deniedPostgresFunction } from "./denied-functions.ts";
import { firstInTree } from "./tree-walk.ts";

let loading: Promise<void> | undefined;

type Tree = Record<string, unknown>;

/** Why the statement is not a read, or undefined when it is one. */
export async function postgresRefusal(text: string): Promise<string | undefined> {
  loading ??= loadModule();
  await loading;
  let stmts: { stmt?: unknown }[];
  try {
    stmts = parseSync(text).stmts ?? [];
  } catch (error) {
    return `cannot be parsed (${error instanceof Error ? error.message : String(error)})`;
  }
  if (stmts.length !== 1 || !stmts[0]!.stmt) return `holds ${stmts.length} statements`;
  const [type, node] = Object.entries(stmts[0]!.stmt as Tree)[0] as [string, Tree];
  if (type === "VariableShowStmt") return undefined;
  const query = type === "ExplainStmt" ? (node.query as Tree) : { [type]: node };
  const queryType = Object.keys(query)[0]!;
  if (queryType !== "SelectStmt") return `is ${statementLabel(queryType, query[queryType] as Tree)}`;
  return refusalIn(query);
}

/** The first thing in the tree a read may not hold. */
function refusalIn(tree: Tree): string | undefined {
  return firstInTree(tree, (node) => {
    for (const [key, value] of Object.entries(node)) {
      const found = refusalAt(key, value as Tree);
      if (found) return found;
    }
    return undefined;
  });
}

function refusalAt(key: string, value: Tree): string | undefined {
  if (key.endsWith("Stmt") && key !== "SelectStmt") return `holds ${statementLabel(key, value)}`;
  if (key === "intoClause") return "stores its result (SELECT INTO)";
  if (key === "lockingClause") return "locks rows (FOR UPDATE, FOR SHARE …)";
  if (key === "FuncCall") return deniedName(value.funcname, "calls");
  // f(t) may be written t.f: a column reference naming a denied function is refused too.
  if (key === "ColumnRef") return deniedName(value.fields, "names");
  return undefined;
}

function deniedName(parts: unknown, verb: string): string | undefined {
  const last = Array.isArray(parts) ? (parts.at(-1) as { String?: { sval?: string } } | undefined) : undefined;
  const name = last?.String?.sval;
  return name !== undefined && deniedPostgresFunction(name) ? `${verb} ${name}, which a read may not call` : undefined;
}

const LABELS: Record<string, string> = {
  VariableSetStmt: "SET",
  IndexStmt: "CREATE INDEX",
  CreateStmt: "CREATE TABLE",
  CreateTableAsStmt: "CREATE TABLE AS",
  TransactionStmt: "transaction control",
  DoStmt: "DO",
};

/** InsertStmt → INSERT, AlterTableStmt → ALTER TABLE; VACUUM and ANALYZE share a node. */
function statementLabel(type: string, node: Tree | undefined): string {
  if (type === "VacuumStmt") return node?.is_vacuumcmd ? "VACUUM" : "ANALYZE";
  return LABELS[type] ?? type.replace(/Stmt$/, "").replace(/(?<=[a-z])(?=[A-Z])/g, " ").toUpperCase();
}
