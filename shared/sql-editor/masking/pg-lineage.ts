// Where a PostgreSQL read's result columns come from, from its parse tree
// (libpg-query): the tables it reads anywhere in the tree, each output
// column's source when it is a plain column reference of a simple SELECT,
// and the columns its predicates (WHERE, JOIN ON, ORDER BY, GROUP BY,
// HAVING) look at. Set operations, CTEs and subqueries are not followed:
// their columns stay untraced.
import { loadModule, parseSync } from "libpg-query";
import { firstInTree } from "../guard/tree-walk.ts";
import type { ColumnSource, Lineage, TableRef } from "./lineage.ts";

type Node = Record<string, any>;

let loading: Promise<void> | undefined;

export async function postgresLineage(statement: string, defaultSchema: string): Promise<Lineage> {
  loading ??= loadModule();
  await loading;
  const stmt = parseSync(statement).stmts?.[0]?.stmt as Node | undefined;
  const select = (stmt?.["ExplainStmt"]?.query ?? stmt)?.["SelectStmt"] as Node | undefined;
  const tables = rangeVars(stmt ?? {}, defaultSchema);
  if (!select || select.op !== "SETOP_NONE" || select.withClause || !select.targetList) return { tables, outputs: undefined, star: false, predicates: [] };
  const aliases = new Map(directTables(select.fromClause ?? [], defaultSchema).map((t) => [t.alias, t.table]));
  const resolve = (ref: Node) => columnOf(ref, aliases);
  const outputs = (select.targetList as Node[]).map((target) => outputSource(target["ResTarget"]?.val, resolve));
  const star = (select.targetList as Node[]).some((target) => target["ResTarget"]?.val?.ColumnRef?.fields?.some((f: Node) => f["A_Star"]));
  const predicateTrees = [select.whereClause, select.havingClause, select.groupClause, select.sortClause, joinQuals(select.fromClause ?? [])];
  const predicates = predicateTrees.flatMap((tree) => columnRefs(tree).map(resolve));
  return { tables, outputs, star, predicates };
}

function outputSource(val: Node | undefined, resolve: (ref: Node) => ColumnSource): ColumnSource | "constant" {
  if (val?.["ColumnRef"] && !val["ColumnRef"].fields.some((f: Node) => f["A_Star"])) return resolve(val["ColumnRef"]);
  return columnRefs(val).length === 0 && !firstInTree(val, (n) => (n["SubLink"] ? "x" : undefined)) ? "constant" : { untraced: true };
}

/** A column reference: `col` (table undefined: any of the statement's) or `qualifier.col`. */
function columnOf(ref: Node, aliases: Map<string, TableRef>): ColumnSource {
  const names = (ref.fields as Node[]).map((f) => f["String"]?.sval as string | undefined);
  if (names.some((n) => n === undefined)) return { untraced: true };
  const column = names.at(-1)!;
  if (names.length === 1) return aliases.size === 1 ? { table: [...aliases.values()][0], column } : { column };
  const table = aliases.get(names.at(-2)!);
  return table ? { table, column } : { untraced: true };
}

function columnRefs(tree: unknown): Node[] {
  const found: Node[] = [];
  firstInTree(tree, (node: Node) => {
    if (node["ColumnRef"]) found.push(node["ColumnRef"]);
    return undefined;
  });
  return found;
}

function rangeVars(tree: unknown, defaultSchema: string): TableRef[] {
  const found: TableRef[] = [];
  firstInTree(tree, (node: Node) => {
    const range = node["RangeVar"];
    if (range) found.push({ schema: range.schemaname ?? defaultSchema, table: range.relname });
    return undefined;
  });
  return found;
}

/** The FROM clause's own tables (joins included, subqueries not) by the name the statement calls them. */
function directTables(from: Node[], defaultSchema: string): { alias: string; table: TableRef }[] {
  return from.flatMap((item) => {
    if (item["RangeVar"]) {
      const range = item["RangeVar"];
      return [{ alias: range.alias?.aliasname ?? range.relname, table: { schema: range.schemaname ?? defaultSchema, table: range.relname } }];
    }
    if (item["JoinExpr"]) return directTables([item["JoinExpr"].larg, item["JoinExpr"].rarg], defaultSchema);
    return [];
  });
}

function joinQuals(from: Node[]): unknown[] {
  const quals: unknown[] = [];
  firstInTree(from, (node: Node) => {
    if (node["JoinExpr"]?.quals) quals.push(node["JoinExpr"].quals);
    return undefined;
  });
  return quals;
}
