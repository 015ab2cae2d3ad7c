// Field names in `filter` and `order_by` may be written in snake_case or
// lowerCamelCase (contract §3.1): `create_time` and `createTime` are one field.
import { type DomainError, invalidArgument, quoted } from "../errors.ts";

/** The snake_case form of a snake_case or lowerCamelCase name. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The JSON (lowerCamelCase) form of a field name or dotted path: "password_restriction.min_length" → "passwordRestriction.minLength". */
export function jsonName(path: string): string {
  return path.replace(/_([a-z0-9])/g, (_, next: string) => next.toUpperCase());
}

export interface FieldResolver {
  /** The canonical key for a name as written in a request, if it is known. */
  resolve(name: string): string | undefined;
  /** Canonical keys, sorted, for error messages. */
  readonly supported: readonly string[];
}

/** Indexes canonical keys and their aliases under their snake_case forms. */
export function fieldResolver(fields: Iterable<readonly [key: string, aliases: readonly string[]]>): FieldResolver {
  const byName = new Map<string, string>();
  for (const [key, aliases] of fields) {
    for (const name of [key, ...aliases]) byName.set(snakeCase(name), key);
  }
  const supported = [...new Set(byName.values())].sort();
  return { resolve: (name) => byName.get(snakeCase(name)), supported };
}

/** `unknown filter field "owner"; supported: action, actor, …` */
export function unknownField(parameter: "filter" | "order_by", name: string, supported: readonly string[]): DomainError {
  return invalidArgument(`unknown ${parameter} field ${quoted(name)}; supported: ${supported.join(", ")}`);
}
