// Small readers of sqlparser-rs's tree (its serde JSON: enums as a bare
// string for a unit variant or a one-key object {Variant: body}), so the
// second MySQL adapter reads it without casts. A shape the adapter does not
// know throws Unclaimed: the statement then goes to node-sql-parser, whose
// facts are the reference, rather than get guessed facts.
import type { TableRef } from "./facts.ts";
import type { Tree } from "./mysql-nodes.ts";
import { isReservedWord } from "./reserved-words.ts";

/** Thrown where the adapter meets a statement it does not handle. */
export class Unclaimed extends Error {}

export function unclaimed(what: string): never {
  throw new Unclaimed(what);
}

/** An enum value as [variant, body]: "NotNull" → ["NotNull", undefined], {Default: x} → ["Default", x]. */
export function variantOf(value: unknown): [string, unknown] {
  if (typeof value === "string") return [value, undefined];
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1) return [keys[0]!, (value as Tree)[keys[0]!]];
  }
  return unclaimed("an unknown enum shape");
}

export function node(value: unknown): Tree | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Tree) : undefined;
}

export function nodes(value: unknown): Tree[] {
  return Array.isArray(value) ? value.filter((v): v is Tree => !!v && typeof v === "object" && !Array.isArray(v)) : [];
}

/**
 * An Ident's name as written, without its quotes. sqlparser-rs takes names
 * MySQL refuses: a "quoted" one (a string in MySQL without ANSI_QUOTES) and
 * an unquoted reserved word (`FROM WHERE`); those go to node-sql-parser.
 */
export function identName(ident: unknown): string {
  const value = node(ident)?.value;
  if (typeof value !== "string") return unclaimed("an identifier without a name");
  const quote = node(ident)?.quote_style;
  if (quote === '"' || (quote == null && isReservedWord("MYSQL", value))) unclaimed("a name MySQL refuses");
  return value;
}

/** An ObjectName ([{Identifier: {value}}, …]) as its parts. */
export function nameParts(objectName: unknown): string[] {
  if (!Array.isArray(objectName)) return unclaimed("an object name that is not a list");
  return objectName.map((part) => {
    const [variant, ident] = variantOf(part);
    return variant === "Identifier" ? identName(ident) : unclaimed(`a ${variant} name part`);
  });
}

/** A table name: "t" or "db.t" (more parts are not MySQL's). */
export function tableRef(objectName: unknown): TableRef {
  const parts = nameParts(objectName);
  if (parts.length === 1) return { name: parts[0]! };
  if (parts.length === 2) return { schema: parts[0]!, name: parts[1]! };
  return unclaimed("a name of more than two parts");
}

/** A one-part object name (database, index). */
export function simpleName(objectName: unknown): string {
  const parts = nameParts(objectName);
  return parts.length === 1 ? parts[0]! : unclaimed("a qualified name");
}

/** A quoted string literal's text: {Value: {value: {SingleQuotedString: "x"}}}. */
export function stringValue(expr: unknown): string | undefined {
  const [variant, body] = variantOf(node(node(node(expr)?.Value)?.value) ?? "none");
  return variant === "SingleQuotedString" || variant === "DoubleQuotedString" ? (body as string) : undefined;
}
