// Small readers of node-sql-parser's tree (plain JSON-like objects whose
// shape varies by statement), so the MySQL adapter reads it without casts.
import { canonicalType } from "./column-types.ts";
import type { TableRef } from "./facts.ts";

export type Tree = { readonly [key: string]: unknown };

export function child(node: Tree | undefined, key: string): Tree | undefined {
  const value = node?.[key];
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Tree) : undefined;
}

export function list(node: Tree | undefined, key: string): Tree[] {
  const value = node?.[key];
  return Array.isArray(value) ? value.filter((v): v is Tree => !!v && typeof v === "object") : [];
}

export function text(node: Tree | undefined, key: string): string | undefined {
  const value = node?.[key];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
}

export function tableOf(node: Tree | undefined): TableRef {
  const name = text(node, "table") ?? "";
  const db = text(node, "db");
  return db ? { schema: db, name } : { name };
}

/** A column reference's name: "a", or {expr: {value: "a"}} in some statements. */
export function columnName(ref: Tree | undefined): string {
  return text(ref, "column") ?? text(child(child(ref, "column"), "expr"), "value") ?? "";
}

/** An index or key part: a column (with an optional prefix length) or an expression. */
export function keyPart(part: Tree): string {
  return part.type === "column_ref" ? columnName(part) : "(expression)";
}

/** A column's data type in canonical form: {dataType: "VARCHAR", length: 20, suffix: ["UNSIGNED"]}. */
export function typeOf(definition: Tree | undefined): { type: string; typeName: string } {
  const name = text(definition, "dataType") ?? "";
  const length = text(definition, "length");
  const scale = text(definition, "scale");
  const args = length === undefined ? [] : scale === undefined ? [length] : [length, scale];
  const suffix = Array.isArray(definition?.suffix) ? definition.suffix.filter((s): s is string => typeof s === "string") : [];
  return { type: canonicalType(name, args, suffix), typeName: canonicalType(name) };
}

/** A string literal's value (node-sql-parser keeps the quotes of table options: "'x'"). */
export function literalText(value: unknown): string | undefined {
  if (typeof value === "string") return value.replace(/^'(.*)'$/s, "$1");
  if (value && typeof value === "object") return literalText((value as Tree).value);
  return undefined;
}

/** Calls visit on every object of a parser's tree, depth first in written order, except under the keys `skipped` names. */
export function walkTree(root: unknown, visit: (node: Tree) => void, skipped: ReadonlySet<string> = NO_KEYS): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (!value || typeof value !== "object") continue;
    // Children go on the stack last first, so that they come off it in written order.
    const children = Array.isArray(value) ? value : Object.keys(value).filter((key) => !skipped.has(key)).map((key) => (value as Tree)[key]);
    if (!Array.isArray(value)) visit(value as Tree);
    for (let i = children.length - 1; i >= 0; i--) if (children[i] && typeof children[i] === "object") stack.push(children[i]);
  }
}

const NO_KEYS: ReadonlySet<string> = new Set();
