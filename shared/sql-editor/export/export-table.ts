// The table a SQL export's INSERTs name (contract §18.10): the statement's
// one source table when the parser tells — a plain SELECT (no set operation,
// no WITH, whose names could be its own) from a single table, no join or
// subquery — with its schema when the statement names one; else "export".
import { loadModule, parseSync } from "libpg-query";
import type { Engine } from "../../inventory/index.ts";
import { mysqlTree } from "../guard/my-guard.ts";

type Tree = Record<string, unknown>;

const FALLBACK = ["export"];

let loading: Promise<void> | undefined;

/** The table's name parts (["shop", "orders"], ["orders"]), or ["export"]. */
export async function exportTableName(engine: Engine, statement: string): Promise<string[]> {
  try {
    return (engine === "POSTGRES" ? await postgresSource(statement) : mysqlSource(statement)) ?? FALLBACK;
  } catch {
    return FALLBACK; // what the parser cannot read names no table
  }
}

async function postgresSource(statement: string): Promise<string[] | undefined> {
  loading ??= loadModule();
  await loading;
  const stmts = parseSync(statement).stmts ?? [];
  const select = (stmts.length === 1 ? (stmts[0]!.stmt as Tree | undefined)?.SelectStmt : undefined) as Tree | undefined;
  if (!select || select.op !== "SETOP_NONE" || select.withClause) return undefined;
  const from = select.fromClause as Tree[] | undefined;
  const table = from?.length === 1 ? (from[0]!.RangeVar as Tree | undefined) : undefined;
  return table ? nameParts(table.schemaname, table.relname) : undefined;
}

function mysqlSource(statement: string): string[] | undefined {
  const tree = mysqlTree(statement);
  if (typeof tree === "string" || tree.type !== "select" || tree._next || tree.with) return undefined;
  const from = tree.from as Tree[] | null;
  const table = from?.length === 1 && typeof from[0]!.table === "string" ? from[0]! : undefined;
  return table ? nameParts(table.db, table.table) : undefined;
}

function nameParts(schema: unknown, name: unknown): string[] {
  return typeof schema === "string" && schema !== "" ? [schema, String(name)] : [String(name)];
}
