// Where a PostgreSQL read's result columns come from, from its parse tree
// (libpg-query): the tables it reads anywhere in the tree, each output
// column's source when the statement is one SELECT over plain tables and
// traced derived tables or CTEs (a column reference, qualified by table or
// alias or not; `*` by result column name over plain tables only), and the
// columns every SELECT in it — subqueries, derived tables, CTEs, set
// operations' members — filters, joins, groups, orders, HAVINGs, partitions
// or orders a window or an aggregate by, or makes DISTINCT (a DISTINCT's row
// count tells how many values differ; a set operation other than UNION ALL
// compares its members' outputs so), each placed among the relations that
// SELECT sees. A derived table or CTE that is one SELECT without `*` is
// followed: its columns are its select list's sources (renamed by a column
// list). A column the tracer cannot place (qualified by a set operation or
// function in FROM, unqualified beside one or beside several relations of
// which one is derived, in a SELECT nested in one that holds those, ordering
// a set operation) is untraced. CTE names are scoped as PostgreSQL scopes
// them: a WITH's names are seen by its SELECT and what that SELECT holds.
import type { Tree } from "../guard/statement-tree.ts";
import type { ColumnSource, Lineage } from "./lineage.ts";
import { addDerived, addOpaque, addTable, collectOutside, type DerivedColumns, derivedColumns, innerScope, NO_OUTER, type Outer, placeColumn, type Scope, UNTRACED } from "./lineage-scope.ts";
import { type OrderingItem, orderingSources, type Output, type SetOp, sourcesOf } from "./ordering.ts";

type Node = Record<string, any>;

interface Trace {
  lineage: Lineage;
  defaultSchema: string;
}

/** The lineage of a read, from the statement node the guard parsed. */
export function postgresLineage(stmt: Tree | undefined, defaultSchema: string): Lineage {
  const top = (stmt?.["ExplainStmt"]?.query ?? stmt)?.["SelectStmt"] as Node | undefined;
  const trace: Trace = { lineage: { tables: [], outputs: undefined, star: false, predicates: [] }, defaultSchema };
  if (!top) return trace.lineage;
  const scope = visitSelect(top, NO_OUTER, trace);
  const outputs = top.op === "SETOP_NONE" && top.targetList && !scope.opaque ? outputsOf(top, scope) : undefined;
  // A `*` is matched by result column name, which a derived table may have renamed.
  if (outputs && !(outputs.some((output) => output.star) && scope.ownDerived.length > 0)) {
    trace.lineage.outputs = outputs.map((output) => output.source);
    trace.lineage.star = outputs.some((output) => output.star);
  }
  return trace.lineage;
}

/** Adds a SELECT's tables and predicates (and those of the SELECTs it holds) to the lineage; answers its scope. */
function visitSelect(select: Node, around: Outer, trace: Trace, inSetOp?: SetOp): Scope {
  const outer = withCtes(select, around, trace);
  const orders = ((select.sortClause ?? []) as Node[]).map((sort) => sort["SortBy"].node);
  if (select.op !== "SETOP_NONE") {
    const compares = inSetOp === "compares" || select.op !== "SETOP_UNION" || !select.all;
    for (const member of [select.larg, select.rarg]) visitSelect(member, outer, trace, compares ? "compares" : "keeps");
    trace.lineage.predicates.push(...orders.map(() => UNTRACED));
    return { ...innerScope(outer), opaque: true };
  }
  const scope = innerScope(outer);
  const derivedBodies = new Set<Node>();
  const joins = fromTables(select.fromClause ?? [], scope, outer, trace, derivedBodies);
  trace.lineage.tables.push(...scope.own);
  const outputs = outputsOf(select, scope);
  const refs = [select.whereClause, select.havingClause, ...joins.map((join) => join.quals)].flatMap(columnRefs);
  const usings = joins.flatMap((join) => (join.usingClause ?? []).map((u: Node) => placeColumn(scope, undefined, u["String"].sval)));
  const read = (node: Node) => orderingItem(node, scope);
  const ordered = orderingSources(inSetOp !== undefined ? select.groupClause ?? [] : [...(select.groupClause ?? []), ...orders], outputs, read);
  const havingNames = orderingSources(columnRefs(select.havingClause), outputs, (ref) => ({ name: bareName(ref), sources: [] }));
  trace.lineage.predicates.push(...refs.map((ref) => sourceOf(ref, scope)), ...usings, ...ordered, ...havingNames, ...(inSetOp !== undefined ? orders.map(() => UNTRACED) : []));
  trace.lineage.predicates.push(...windowRefs(select).map((ref) => sourceOf(ref, scope)), ...distinctSources(select, outputs, read), ...(inSetOp === "compares" ? sourcesOf(outputs) : []));
  const held = { targetList: select.targetList, fromClause: select.fromClause, whereClause: select.whereClause, havingClause: select.havingClause, groupClause: select.groupClause, orders };
  for (const nested of nestedSelects(held)) if (!derivedBodies.has(nested)) visitSelect(nested, scope, trace);
  return scope;
}

/** The SELECT's CTEs added to what it sees, traced in order, each seeing those before it (under RECURSIVE, all of them, untraced). */
function withCtes(select: Node, outer: Outer, trace: Trace): Outer {
  const ctes = ((select.withClause?.ctes ?? []) as Node[]).map((cte) => cte["CommonTableExpr"] as Node);
  if (ctes.length === 0) return outer;
  const inReach = new Map(outer.ctes);
  const seen: Outer = { ...outer, ctes: inReach };
  if (select.withClause.recursive) for (const cte of ctes) inReach.set(cte.ctename, undefined);
  // Without RECURSIVE, a CTE's own name inside it is another relation (a table, an outer CTE).
  for (const cte of ctes) inReach.set(cte.ctename, followed(cte.ctequery["SelectStmt"], seen, trace, names(cte.aliascolnames)));
  return seen;
}

/** Visits a derived table's or CTE's SELECT; answers its columns when they can be followed. */
function followed(body: Node, outer: Outer, trace: Trace, renamed: string[]): DerivedColumns | undefined {
  const scope = visitSelect(body, outer, trace);
  return body.op === "SETOP_NONE" && !scope.opaque ? derivedColumns(outputsOf(body, scope), renamed) : undefined;
}

/** Fills the scope with the FROM clause's relations (joins included); answers its joins. */
function fromTables(items: Node[], scope: Scope, outer: Outer, trace: Trace, derivedBodies: Set<Node>): Node[] {
  return items.flatMap((item) => {
    const range = item["RangeVar"];
    const join = item["JoinExpr"];
    const subselect = item["RangeSubselect"];
    if (join) return [join, ...fromTables([join.larg, join.rarg], scope, outer, trace, derivedBodies)];
    if (range && (range.schemaname || !scope.ctes.has(range.relname))) {
      addTable(scope, range.alias?.aliasname ?? range.relname, { schema: range.schemaname ?? trace.defaultSchema, table: range.relname });
    } else if (range) {
      addDerived(scope, range.alias?.aliasname ?? range.relname, range.alias?.colnames ? undefined : scope.ctes.get(range.relname));
    } else if (subselect?.subquery?.["SelectStmt"]) {
      const body = subselect.subquery["SelectStmt"] as Node;
      derivedBodies.add(body);
      // A LATERAL one sees the FROM items before it; another only the SELECTs around this one.
      addDerived(scope, subselect.alias?.aliasname, followed(body, subselect.lateral ? scope : outer, trace, names(subselect.alias?.colnames)));
    } else {
      addOpaque(scope, (Object.values(item)[0] as Node | undefined)?.alias?.aliasname);
    }
    return [];
  });
}

function names(list: Node[] | undefined): string[] {
  return (list ?? []).map((name) => name["String"]?.sval as string);
}

/** Each select-list entry's source, with the name an ORDER BY or GROUP BY may call it. */
function outputsOf(select: Node, scope: Scope): Output[] {
  return ((select.targetList ?? []) as Node[]).map((target) => {
    const { name, val } = target["ResTarget"] as Node;
    const ref = val?.["ColumnRef"] as Node | undefined;
    const star = ref?.fields.some((f: Node) => f["A_Star"]) ?? false;
    const outputName = name ?? (ref && !star ? ref.fields.at(-1)["String"]?.sval : undefined);
    if (ref) return { name: outputName, source: star ? UNTRACED : sourceOf(ref, scope), star };
    const constant = columnRefs(val).length === 0 && nestedSelects(val).length === 0;
    return { name: outputName, source: constant ? "constant" : UNTRACED };
  });
}

/** A GROUP BY / ORDER BY item as orderingSources reads it. */
function orderingItem(node: Node, scope: Scope): OrderingItem {
  const ordinal = node["A_Const"]?.ival;
  if (ordinal) return { ordinal: ordinal.ival ?? 0 };
  const ref = node["ColumnRef"] as Node | undefined;
  return { name: ref ? bareName(ref) : undefined, sources: columnRefs(node).map((r) => sourceOf(r, scope)) };
}

/** The columns windows (named or inline) partition or order by, and aggregates order by, in this SELECT. */
function windowRefs(select: Node): Node[] {
  const windows = collectOutside(select, (node) => node["WindowDef"] ?? (node["FuncCall"] && [node["FuncCall"].over, node["FuncCall"].agg_order]), (node) => Boolean(node["SelectStmt"]));
  return columnRefs(windows);
}

/** DISTINCT compares every output; DISTINCT ON its items (read as ORDER BY's). */
function distinctSources(select: Node, outputs: Output[], read: (node: Node) => OrderingItem): ColumnSource[] {
  const items = (select.distinctClause ?? []) as Node[];
  const plain = items.length > 0 && Object.keys(items[0]!).length === 0;
  return plain ? sourcesOf(outputs) : orderingSources(items, outputs, read);
}

function bareName(ref: Node): string | undefined {
  return ref.fields.length === 1 ? ref.fields[0]["String"]?.sval : undefined;
}

/** A column reference: `col` or `qualifier.col` (`schema.table.col` by its table). */
function sourceOf(ref: Node, scope: Scope): ColumnSource {
  const names = (ref.fields as Node[]).map((f) => f["String"]?.sval as string | undefined);
  if (names.some((n) => n === undefined)) return UNTRACED;
  return placeColumn(scope, names.at(-2), names.at(-1)!);
}

/** Column references in a tree, not those of the SELECTs it holds. */
function columnRefs(tree: unknown): Node[] {
  return collectOutside(tree, (node) => node["ColumnRef"], (node) => Boolean(node["SelectStmt"]));
}

/** The SELECTs a tree holds, not those they hold in turn. */
function nestedSelects(tree: unknown): Node[] {
  return collectOutside(tree, (node) => node["SelectStmt"], (node) => Boolean(node["SelectStmt"]));
}
