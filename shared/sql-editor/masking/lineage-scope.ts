// What both engines' tracers share: the tables a SELECT sees (its own, then
// those of the SELECTs around it, for correlated subqueries), how a column
// reference is placed among them, and a walk of a parse tree that stays out
// of the SELECTs it holds (each is traced in its own scope).
import type { ColumnSource, TableRef } from "./lineage.ts";

type Node = Record<string, any>;

export interface Scope {
  /** Tables by the name the statement calls them here (outer SELECTs' included). */
  aliases: Map<string, TableRef>;
  /** The SELECT's own plain tables. */
  own: TableRef[];
  /** Its FROM holds a derived table, a CTE or a function: an unqualified column may come from one. */
  opaque: boolean;
}

export const UNTRACED: ColumnSource = { untraced: true };

export function innerScope(outer: Map<string, TableRef>): Scope {
  return { aliases: new Map(outer), own: [], opaque: false };
}

/** A FROM item that is not a plain table: its alias hides an outer table of that name. */
export function addOpaque(scope: Scope, alias: string | undefined): void {
  scope.opaque = true;
  if (alias) scope.aliases.delete(alias);
}

export function addTable(scope: Scope, alias: string, table: TableRef): void {
  scope.own.push(table);
  scope.aliases.set(alias, table);
}

/** `qualifier.column` is the aliased table's; a bare column is the only table's, or any table's of the statement. */
export function placeColumn(scope: Scope, qualifier: string | undefined, column: string): ColumnSource {
  if (qualifier !== undefined) {
    const table = scope.aliases.get(qualifier);
    return table ? { table, column } : UNTRACED;
  }
  if (scope.opaque) return UNTRACED;
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
