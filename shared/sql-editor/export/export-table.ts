// The table a SQL export's INSERTs name (contract §18.10): the statement's
// one source table when the parser tells — a plain SELECT (no set operation,
// no WITH, whose names could be its own) from a single table, no join or
// subquery — with its schema when the statement names one; else "export".
import type { Engine } from "../../inventory/index.ts";
import type { Tree } from "../guard/statement-tree.ts";

const FALLBACK = ["export"];

/** The table's name parts (["shop", "orders"], ["orders"]), or ["export"]; from the statement's tree as the guard parsed it. */
export function exportTableName(engine: Engine, tree: Tree | undefined): string[] {
  if (!tree) return FALLBACK;
  return (engine === "POSTGRES" ? postgresSource(tree) : mysqlSource(tree)) ?? FALLBACK;
}

function postgresSource(stmt: Tree): string[] | undefined {
  const select = stmt.SelectStmt as Tree | undefined;
  if (!select || select.op !== "SETOP_NONE" || select.withClause) return undefined;
  const from = select.fromClause as Tree[] | undefined;
  const table = from?.length === 1 ? (from[0]!.RangeVar as Tree | undefined) : undefined;
  return table ? nameParts(table.schemaname, table.relname) : undefined;
}

function mysqlSource(tree: Tree): string[] | undefined {
  if (tree.type !== "select" || tree._next || tree.with) return undefined;
  const from = tree.from as Tree[] | null;
  const table = from?.length === 1 && typeof from[0]!.table === "string" ? from[0]! : undefined;
  return table ? nameParts(table.db, table.table) : undefined;
}

function nameParts(schema: unknown, name: unknown): string[] {
  return typeof schema === "string" && schema !== "" ? [schema, String(name)] : [String(name)];
}
