// What both engines' tracers share: the relations a SELECT sees (its own,
// then those of the SELECTs around it, for correlated subqueries), how a
// column reference is placed among them, and a walk of a parse tree that
// stays out of the SELECTs it holds (each is traced in its own scope). A
// derived table or CTE whose select list is traced is a relation too: its
// columns resolve to their own sources, so a plain projection through it is
// followed to the table column it shows.
import type { ColumnSource, TableRef } from "./lineage.ts";

type Node = Record<string, any>;

/** A derived table's or CTE's columns by the name they are called by, each with its source. */
export type DerivedColumns = ReadonlyMap<string, ColumnSource>;

/** What a SELECT sees of the SELECTs around it. */
export interface Outer {
  /** Tables by the name the statement calls them. */
  aliases: ReadonlyMap<string, TableRef>;
  /** Traced derived tables and CTEs by that name. */
  derived: ReadonlyMap<string, DerivedColumns>;
  /** The CTEs in reach (the WITHs of this SELECT and those around it), with their columns when traced. */
  ctes: ReadonlyMap<string, DerivedColumns | undefined>;
  /** An unqualified column may come from a relation the tracer cannot see into or does not know the columns of (its own or an enclosing SELECT's). */
  opaque: boolean;
}

export interface Scope extends Outer {
  aliases: Map<string, TableRef>;
  derived: Map<string, DerivedColumns>;
  /** The SELECT's own plain tables. */
  own: TableRef[];
  /** The SELECT's own traced derived tables and CTEs. */
  ownDerived: DerivedColumns[];
  /** Its FROM holds something not followed (a function, a set operation, a `*` in a derived table), or an enclosing SELECT's does or has a derived table. */
  opaque: boolean;
}

export const UNTRACED: ColumnSource = { untraced: true };

export const NO_OUTER: Outer = { aliases: new Map(), derived: new Map(), ctes: new Map(), opaque: false };

/** A nested SELECT's scope: an unqualified column in it may be an enclosing derived table's or opaque relation's. */
export function innerScope(outer: Outer): Scope {
  const enclosedByUnknown = outer.opaque || ("ownDerived" in outer && (outer as Scope).ownDerived.length > 0);
  return { aliases: new Map(outer.aliases), derived: new Map(outer.derived), ctes: outer.ctes, own: [], ownDerived: [], opaque: enclosedByUnknown };
}

/** A FROM item that is not followed: its alias hides an outer relation of that name. */
export function addOpaque(scope: Scope, alias: string | undefined): void {
  scope.opaque = true;
  if (alias) forget(scope, alias);
}

export function addTable(scope: Scope, alias: string, table: TableRef): void {
  forget(scope, alias);
  scope.own.push(table);
  scope.aliases.set(alias, table);
}

/** A derived table or CTE whose outputs are traced (undefined: not followed, opaque); one without an alias is reached by bare names only. */
export function addDerived(scope: Scope, alias: string | undefined, columns: DerivedColumns | undefined): void {
  if (!columns) return addOpaque(scope, alias);
  scope.ownDerived.push(columns);
  if (alias === undefined) return;
  forget(scope, alias);
  scope.derived.set(alias, columns);
}

function forget(scope: Scope, alias: string): void {
  scope.aliases.delete(alias);
  scope.derived.delete(alias);
}

/**
 * The columns a traced SELECT shows, by name (renamed by a column list, e.g.
 * `AS x(a, b)`); undefined when they cannot be named: a `*` among them, or a
 * column list longer than the select list. A name shown twice is untraced.
 */
export function derivedColumns(outputs: readonly { name: string | undefined; source: ColumnSource | "constant"; star?: boolean }[], renamed: readonly string[]): DerivedColumns | undefined {
  if (outputs.some((o) => o.star) || renamed.length > outputs.length) return undefined;
  const columns = new Map<string, ColumnSource>();
  outputs.forEach((output, i) => {
    const name = renamed[i] ?? output.name;
    if (name === undefined) return;
    // A constant reads no column; its name may still be used, so it is kept untraced rather than absent.
    const source = output.source === "constant" ? UNTRACED : output.source;
    columns.set(name, columns.has(name) ? UNTRACED : source);
  });
  return columns;
}

/** `qualifier.column` is the aliased relation's; a bare column is the only relation's, or any table's of the statement. */
export function placeColumn(scope: Scope, qualifier: string | undefined, column: string): ColumnSource {
  if (qualifier !== undefined) {
    const table = scope.aliases.get(qualifier);
    if (table) return { table, column };
    return scope.derived.get(qualifier)?.get(column) ?? UNTRACED;
  }
  if (scope.opaque) return UNTRACED;
  if (scope.ownDerived.length > 0) {
    const only = scope.own.length === 0 && scope.ownDerived.length === 1 ? scope.ownDerived[0]!.get(column) : undefined;
    return only ?? UNTRACED;
  }
  return scope.own.length === 1 && scope.aliases.size === 1 ? { table: scope.own[0], column } : { column };
}

/** What `pick` finds in a tree, not descending into the nodes `stop` names (but for the tree itself). */
export function collectOutside(tree: unknown, pick: (node: Node) => Node | undefined, stop: (node: Node) => boolean): Node[] {
  const found: Node[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== "object") return;
    const picked = pick(value as Node);
    if (picked) found.push(picked);
    if (value === tree || !stop(value as Node)) Object.values(value).forEach(walk);
  };
  walk(tree);
  return found;
}
