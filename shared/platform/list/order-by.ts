// `order_by` (contract §2.2): comma-separated `field [asc|desc]`, checked
// against the fields a list can sort by. Names may be snake_case or
// lowerCamelCase; the result names the canonical field the list gave.
import { invalidArgument, quoted } from "../errors.ts";
import { fieldResolver, unknownField, type FieldResolver } from "./field-name.ts";

export interface OrderKey {
  field: string;
  desc: boolean;
}

/** Parses `order_by`; an empty or blank one gives (a copy of) `defaultOrder`. */
export function parseOrderBy(
  orderBy: string | undefined,
  allowed: readonly string[],
  defaultOrder: readonly OrderKey[],
): OrderKey[] {
  if (orderBy === undefined || orderBy.trim() === "") return defaultOrder.map((key) => ({ ...key }));
  const resolver = fieldResolver(allowed.map((field) => [field, []] as const));
  const keys = orderBy.split(",").map((item) => parseItem(item, resolver));
  const seen = new Set<string>();
  for (const { field } of keys) {
    if (seen.has(field)) throw invalidArgument(`order_by: field ${quoted(field)} is given twice`);
    seen.add(field);
  }
  return keys;
}

function parseItem(item: string, resolver: FieldResolver): OrderKey {
  const words = item.trim().split(/\s+/);
  const [name, direction, ...rest] = words;
  if (!name || rest.length > 0) {
    throw invalidArgument(`order_by: expected "field [asc|desc]" between commas, found ${quoted(item.trim())}`);
  }
  const field = resolver.resolve(name);
  if (field === undefined) throw unknownField("order_by", name, resolver.supported);
  return { field, desc: isDescending(field, direction) };
}

function isDescending(field: string, direction: string | undefined): boolean {
  const lower = direction?.toLowerCase();
  if (lower === undefined || lower === "asc") return false;
  if (lower === "desc") return true;
  throw invalidArgument(`order_by: invalid direction ${quoted(direction ?? "")} for field ${quoted(field)}; use asc or desc`);
}
