// Where a MySQL/MariaDB read's result columns come from, from node-sql-parser's
// tree (the guard's): every table it reads, each output column's source when
// the statement is one SELECT over plain tables and traced derived tables or
// CTEs (a column reference, qualified or not, aliased or not; `*` by result
// column name over plain tables only), and the columns every SELECT in it
// (subqueries, derived tables, CTEs, set operations included) filters, joins,
// groups, orders, HAVINGs, partitions or orders a window by, or makes
// DISTINCT (its row count tells how many values differ) — as a set operation
// other than UNION ALL does with its members' outputs — and GROUP_CONCAT
// orders by. A derived table or CTE that is one SELECT without `*` is
// followed: its columns are its select list's sources (renamed by a CTE's
// column list). A table qualified by another database is not one of this
// database's: it is kept under that name, an unknown relation. A column the
// tracer cannot place — qualified by a set operation in FROM, unqualified
// beside one or beside several relations of which one is derived, in a
// SELECT nested in one that holds those, ordered in a set operation — is
// untraced. CTE names are seen by the SELECT whose WITH defines them and what
// it holds. Identifiers are lower-cased: MySQL compares column names without
// case.
import type { Tree } from "../guard/statement-tree.ts";
import type { ColumnSource, Lineage, TableRef } from "./lineage.ts";
import { addDerived, addOpaque, addTable, collectOutside, type DerivedColumns, derivedColumns, innerScope, NO_OUTER, type Outer, placeColumn, type Scope, UNTRACED } from "./lineage-scope.ts";
import { type OrderingItem, orderingSources, type Output, type SetOp, sourcesOf } from "./ordering.ts";

type Node = Record<string, any>;

/** The database whose metadata is synced, and the one the statement runs in (USE <schema>). */
interface Names {
  database: string;
  current: string;
}

/** The lineage of a read, from the tree the guard parsed; undefined when it has none (a SHOW the grammars lack). */
export function mysqlLineage(parsed: Tree | undefined, database: string, current: string): Lineage | undefined {
  if (!parsed) return undefined;
  const top = (parsed.type === "explain" ? parsed.expr : parsed) as Node | undefined;
  const lineage: Lineage = { tables: [], outputs: undefined, star: false, predicates: [], caseless: true };
  if (top?.type !== "select") return lineage;
  const scope = visitSelect(top, NO_OUTER, { database, current }, lineage);
  const star = (top.columns as Node[]).some((c) => c.expr?.type === "column_ref" && c.expr.column === "*");
  // A `*` is matched by result column name, which a derived table may have renamed.
  if (!top._next && !scope.opaque && !(star && scope.ownDerived.length > 0)) {
    lineage.outputs = outputsOf(top, scope).map((output) => output.source);
    lineage.star = star;
  }
  return lineage;
}

/** Adds a SELECT's tables and predicates (and those of the SELECTs it holds) to the lineage; answers its scope. */
function visitSelect(select: Node, around: Outer, names: Names, lineage: Lineage, inSetOp?: SetOp): Scope {
  const outer = withCtes(select, around, names, lineage);
  const derivedBodies = new Set<Node>();
  const scope = scopeOf(select, outer, names, lineage, derivedBodies);
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
  for (const nested of nestedSelects({ ...select, _next: undefined, with: undefined })) if (!derivedBodies.has(nested)) visitSelect(nested, scope, names, lineage);
  if (select._next) visitSelect(select._next, outer, names, lineage, setOp);
  return scope;
}

/** The SELECT's CTEs added to what it sees, traced in order, each seeing those before it (under RECURSIVE, all of them, untraced). */
function withCtes(select: Node, outer: Outer, names: Names, lineage: Lineage): Outer {
  const ctes = ((select.with ?? []) as Node[]).map((cte) => ({ name: lower(cte.name?.value ?? cte.name), body: (cte.stmt?.ast ?? cte.stmt) as Node, columns: (cte.columns ?? []) as Node[], recursive: cte.recursive }));
  if (ctes.length === 0) return outer;
  const inReach = new Map(outer.ctes);
  const seen: Outer = { ...outer, ctes: inReach };
  if (ctes.some((cte) => cte.recursive)) for (const cte of ctes) inReach.set(cte.name, undefined);
  // Without RECURSIVE, a CTE's own name inside it is another relation (a table, an outer CTE).
  for (const cte of ctes) inReach.set(cte.name, followed(cte.body, seen, names, lineage, cte.columns.map((c) => columnName(c) ?? "")));
  return seen;
}

/** Visits a derived table's or CTE's SELECT; answers its columns when they can be followed. */
function followed(body: Node, outer: Outer, names: Names, lineage: Lineage, renamed: string[]): DerivedColumns | undefined {
  const scope = visitSelect(body, outer, names, lineage);
  return !body._next && !scope.opaque ? derivedColumns(outputsOf(body, scope), renamed) : undefined;
}

/** A set operation's rows: "compares" when one of its operators is not UNION ALL (MySQL lets a UNION DISTINCT de-duplicate the members before it). */
function setOpOf(select: Node): SetOp {
  for (let member: Node | undefined = select; member?._next; member = member._next) {
    if (String(member.set_op).toLowerCase() !== "union all") return "compares";
  }
  return "keeps";
}

/** The SELECT's relations: tables, CTEs, derived tables (their SELECTs visited here, and added to `derivedBodies`). */
function scopeOf(select: Node, outer: Outer, names: Names, lineage: Lineage, derivedBodies: Set<Node>): Scope {
  const scope = innerScope(outer);
  for (const item of (select.from ?? []) as Node[]) {
    const alias = item.as ? lower(item.as) : undefined;
    const body = item.expr?.ast as Node | undefined;
    if (typeof item.table === "string" && !item.db && scope.ctes.has(lower(item.table))) {
      addDerived(scope, alias ?? lower(item.table), scope.ctes.get(lower(item.table)));
    } else if (typeof item.table === "string") {
      addTable(scope, alias ?? lower(item.table), tableRef(item, names));
    } else if (body?.type === "select" && !item.columns) {
      derivedBodies.add(body);
      // A LATERAL one sees the FROM items before it; another only the SELECTs around this one.
      addDerived(scope, alias, followed(body, item.prefix === "lateral" ? scope : outer, names, lineage, []));
    } else if (item.type !== "dual") {
      addOpaque(scope, alias);
    }
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
