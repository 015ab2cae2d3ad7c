// Where a MySQL/MariaDB read's result columns come from, from node-sql-parser's
// tree (the guard's): every table it reads, each output column's source when
// the statement is one SELECT over plain tables (a column reference, qualified
// or not, aliased or not; `*` by result column name), and the columns every
// SELECT in it (subqueries, derived tables, CTEs, set operations included)
// filters, joins, groups, orders, HAVINGs, partitions or orders a window by,
// or makes DISTINCT (its row count tells how many values differ) — as a set
// operation other than UNION ALL does with its members' outputs — and
// GROUP_CONCAT orders by. A table qualified by another database is not one of
// this database's: it is kept under that name, an unknown relation. A column the tracer cannot
// place — qualified by a derived table, unqualified beside one, ordered in a
// set operation — is untraced. Identifiers are lower-cased: MySQL compares
// column names without case.
import type { Tree } from "../guard/statement-tree.ts";
import type { ColumnSource, Lineage, TableRef } from "./lineage.ts";
import { addOpaque, addTable, collectOutside, innerScope, placeColumn, type Scope, UNTRACED } from "./lineage-scope.ts";
import { type OrderingItem, orderingSources, type Output, type SetOp, sourcesOf } from "./ordering.ts";

type Node = Record<string, any>;

/** The CTEs a statement defines, the database whose metadata is synced, and the one it runs in (USE <schema>). */
interface Names {
  ctes: Set<string>;
  database: string;
  current: string;
}

/** The lineage of a read, from the tree the guard parsed; undefined when it has none (a SHOW the grammars lack). */
export function mysqlLineage(parsed: Tree | undefined, database: string, current: string): Lineage | undefined {
  if (!parsed) return undefined;
  const top = (parsed.type === "explain" ? parsed.expr : parsed) as Node | undefined;
  const lineage: Lineage = { tables: [], outputs: undefined, star: false, predicates: [], caseless: true };
  if (top?.type !== "select") return lineage;
  const ctes = new Set(((top.with ?? []) as Node[]).map((cte) => lower(cte.name?.value ?? cte.name)));
  const scope = visitSelect(top, new Map(), { ctes, database, current }, lineage);
  if (!top._next && !scope.opaque) {
    lineage.outputs = outputsOf(top, scope).map((output) => output.source);
    lineage.star = (top.columns as Node[]).some((c) => c.expr?.type === "column_ref" && c.expr.column === "*");
  }
  return lineage;
}

/** Adds a SELECT's tables and predicates (and those of the SELECTs it holds) to the lineage; answers its scope. */
function visitSelect(select: Node, outer: Map<string, TableRef>, names: Names, lineage: Lineage, inSetOp?: SetOp): Scope {
  const scope = scopeOf(select, outer, names);
  lineage.tables.push(...scope.own);
  const refs = [select.where, select.having, ...(select.from ?? []).map((item: Node) => item.on)].flatMap(columnRefs);
  const usings = (select.from ?? []).flatMap((item: Node) => (item.using ?? []).map((u: Node) => ({ column: u.value ?? u })));
  lineage.predicates.push(...[...refs, ...usings].map((ref) => sourceOf(ref, scope)));
  const groupings: Node[] = select.groupby?.columns ?? select.groupby ?? [];
  const orders: Node[] = [...(select.orderby ?? []), ...(select._orderby ?? [])].map((o: Node) => o.expr);
  const outputs = outputsOf(select, scope);
  // A set operation's ORDER BY names the combined result's columns, which are not followed.
  const setOp = inSetOp ?? (select._next ? setOpOf(select) : undefined);
  const ordered = orderingSources(setOp !== undefined ? groupings : [...groupings, ...orders], outputs, (node) => orderingItem(node, scope));
  lineage.predicates.push(...ordered, ...(setOp !== undefined ? orders.map(() => UNTRACED) : []));
  const havingNames = columnRefs(select.having).filter((ref) => !ref.table);
  lineage.predicates.push(...orderingSources(havingNames, outputs, (ref) => ({ name: columnName(ref), sources: [] })));
  lineage.predicates.push(...windowRefs(select).map((ref) => sourceOf(ref, scope)), ...(select.distinct || setOp === "compares" ? sourcesOf(outputs) : []));
  for (const nested of nestedSelects({ ...select, _next: undefined, with: undefined })) visitSelect(nested, scope.aliases, names, lineage);
  for (const cte of (select.with ?? []) as Node[]) visitSelect(cte.stmt?.ast ?? cte.stmt, outer, names, lineage);
  if (select._next) visitSelect(select._next, outer, names, lineage, setOp);
  return scope;
}

/** A set operation's rows: "compares" when one of its operators is not UNION ALL (MySQL lets a UNION DISTINCT de-duplicate the members before it). */
function setOpOf(select: Node): SetOp {
  for (let member: Node | undefined = select; member?._next; member = member._next) {
    if (String(member.set_op).toLowerCase() !== "union all") return "compares";
  }
  return "keeps";
}

function scopeOf(select: Node, outer: Map<string, TableRef>, names: Names): Scope {
  const scope = innerScope(outer);
  for (const item of (select.from ?? []) as Node[]) {
    if (typeof item.table === "string" && !names.ctes.has(lower(item.table))) addTable(scope, lower(item.as ?? item.table), tableRef(item, names));
    else if (item.type !== "dual") addOpaque(scope, item.as ? lower(item.as) : undefined);
  }
  return scope;
}

/** Each select-list entry's source, with the name an ORDER BY or GROUP BY may call it. */
function outputsOf(select: Node, scope: Scope): Output[] {
  return ((select.columns ?? []) as Node[]).map((column) => {
    const expr = column.expr as Node;
    const name = column.as ? lower(column.as) : expr?.type === "column_ref" ? columnName(expr) : undefined;
    if (expr?.type === "column_ref" && expr.column !== "*") return { name, source: sourceOf(expr, scope) };
    if (expr?.type === "column_ref") return { name, source: UNTRACED, star: true };
    const constant = columnRefs(expr).length === 0 && nestedSelects(expr).length === 0;
    return { name, source: constant ? "constant" : UNTRACED };
  });
}

/** A GROUP BY / ORDER BY item as orderingSources reads it. */
function orderingItem(node: Node, scope: Scope): OrderingItem {
  if (node?.type === "number") return { ordinal: Number(node.value) };
  const sources = columnRefs(node).map((ref) => sourceOf(ref, scope));
  return node?.type === "column_ref" && !node.table ? { name: columnName(node) ?? "", sources } : { sources };
}

/** This database's tables have no schema; another database's name stays (an unqualified one: the current's), so it is no known table. */
function tableRef(item: Node, names: Names): TableRef {
  const db = item.db ? `${item.db}` : names.current;
  return { schema: db === names.database ? "" : db, table: lower(item.table) };
}

function sourceOf(ref: Node, scope: Scope): ColumnSource {
  const column = columnName(ref);
  return column ? placeColumn(scope, ref.table ? lower(ref.table) : undefined, column) : UNTRACED;
}

function columnName(ref: Node): string | undefined {
  const name = typeof ref.column === "string" ? ref.column : ref.column?.expr?.value;
  return typeof name === "string" ? lower(name) : undefined;
}

function lower(name: unknown): string {
  return String(name).toLowerCase();
}

/** The columns this SELECT's windows (inline or in its WINDOW clause) partition or order by, and GROUP_CONCAT orders by. */
function windowRefs(select: Node): Node[] {
  const pick = (node: Node) => node.window_specification ?? (node.type === "aggr_func" && node.args?.orderby ? { orderby: node.args.orderby } : undefined);
  const specs = collectOutside({ ...select, _next: undefined, with: undefined }, pick, (node) => node.type === "select");
  return columnRefs(specs.map((spec) => [spec.partitionby, spec.orderby]));
}

/** Column references in a tree, not those of the SELECTs it holds. */
function columnRefs(tree: unknown): Node[] {
  return collectOutside(tree, (node) => (node.type === "column_ref" ? node : undefined), (node) => node.type === "select");
}

/** The SELECTs a tree holds, not those they hold in turn. */
function nestedSelects(tree: unknown): Node[] {
  return collectOutside(tree, (node) => (node.type === "select" && node !== tree ? node : undefined), (node) => node.type === "select");
}
