// Whether a PostgreSQL statement is a read (contract §14.3), from the parse
// tree of PostgreSQL's own parser (libpg-query): SELECT (TABLE, VALUES and
// WITH … SELECT are SELECTs), EXPLAIN of one, or SHOW — with nothing in the
// tree that writes (a data-modifying WITH), locks rows (FOR UPDATE, FOR
// SHARE …), stores its result (SELECT INTO) or calls a denied function.
// What the parser refuses is refused.
import { parsePostgres } from "../../inventory/parsers.ts";
import { deniedPostgresFunction } from "./denied-functions.ts";
import type { Tree, Verdict } from "./statement-tree.ts";
import { firstInTree } from "./tree-walk.ts";

/** The statement's tree when it is a read, else why it is not. */
export async function postgresRead(text: string): Promise<Verdict> {
  const parsed = await parsePostgres(text);
  if (!("trees" in parsed)) return { refusal: `cannot be parsed (${parsed.error instanceof Error ? parsed.error.message : String(parsed.error)})` };
  const stmts = parsed.trees;
  if (stmts.length !== 1 || !stmts[0]!.stmt) return { refusal: `holds ${stmts.length} statements` };
  const tree = stmts[0]!.stmt as Tree;
  const [type, node] = Object.entries(tree)[0] as [string, Tree];
  if (type === "VariableShowStmt") return { tree };
  const query = type === "ExplainStmt" ? (node.query as Tree) : { [type]: node };
  const queryType = Object.keys(query)[0]!;
  if (queryType !== "SelectStmt") return { refusal: `is ${statementLabel(queryType, query[queryType] as Tree)}` };
  const refusal = refusalIn(query);
  return refusal ? { refusal } : { tree };
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
