// Small readers of libpg-query's tree (PostgreSQL's own parse nodes as JSON):
// each node is an object with one key, the node type.
import type { A_Const, Node, RangeVar, TypeName } from "@pgsql/types";
import { canonicalType } from "./column-types.ts";
import type { TableRef } from "./facts.ts";

/** The body of a node of the given type, or undefined when the node is of another type. */
export function nodeAs<T>(node: Node | undefined, type: string): T | undefined {
  return node ? ((node as Record<string, unknown>)[type] as T | undefined) : undefined;
}

/** The type name of a node ({"CreateStmt": {…}} → "CreateStmt"). */
export function nodeType(node: Node): string {
  for (const key in node) return key;
  return "";
}

export function stringValue(node: Node | undefined): string | undefined {
  return nodeAs<{ sval?: string }>(node, "String")?.sval;
}

/** The strings of a name list ([schema, name] → ["schema", "name"]). */
export function names(nodes: readonly Node[] | undefined): string[] {
  return (nodes ?? []).map((n) => stringValue(n) ?? "");
}

export function tableOf(relation: RangeVar | undefined): TableRef {
  return relation?.schemaname ? { schema: relation.schemaname, name: relation.relname ?? "" } : { name: relation?.relname ?? "" };
}

/** A qualified name list as a table ([s, t] or [t]). */
export function tableOfNames(parts: readonly string[]): TableRef {
  const name = parts.at(-1) ?? "";
  return parts.length > 1 ? { schema: parts.at(-2)!, name } : { name };
}

/** The text of a constant: a string, a number, a boolean; undefined for NULL or another node. */
export function constantText(node: Node | undefined): string | undefined {
  const constant = nodeAs<A_Const>(node, "A_Const");
  if (!constant || constant.isnull) return undefined;
  if (constant.sval) return constant.sval.sval ?? "";
  if (constant.ival) return String(constant.ival.ival ?? 0);
  if (constant.fval) return constant.fval.fval ?? "0";
  if (constant.boolval) return String(constant.boolval.boolval ?? false);
  return undefined;
}

/** The type in canonical form, without the implicit pg_catalog qualifier. */
export function typeOf(typeName: TypeName | undefined): { type: string; typeName: string } {
  const parts = names(typeName?.names).filter((part, i, all) => !(part === "pg_catalog" && i < all.length - 1));
  const base = parts.at(-1) ?? "";
  const args = (typeName?.typmods ?? []).map((m) => constantText(m) ?? "?");
  const type = canonicalType(base, args, typeName?.arrayBounds?.length ? ["[]"] : []);
  return { type, typeName: canonicalType(base) };
}

/** Calls visit on every node of the tree (depth first), with the node's type and body. */
export function walkNodes(root: unknown, visit: (type: string, body: Record<string, unknown>) => void): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item === "object") stack.push(item);
      continue;
    }
    if (!value || typeof value !== "object") continue;
    for (const key in value as Record<string, unknown>) {
      const child = (value as Record<string, unknown>)[key];
      if (!child || typeof child !== "object") continue;
      // A node is {Type: body}: type names start with an upper-case letter; fields do not.
      const first = key.charCodeAt(0);
      if (first >= 65 && first <= 90 && !Array.isArray(child)) visit(key, child as Record<string, unknown>);
      stack.push(child);
    }
  }
}
