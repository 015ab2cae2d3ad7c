// Column types of sqlparser-rs's tree (DataType variants: {Varchar:
// {IntegerLength: {length: 20}}}, {IntUnsigned: 11}, "Text", {Custom: …}) in
// the canonical form of column-types.ts, as node-sql-parser's are.
import { canonicalType } from "./column-types.ts";
import { nameParts, node, unclaimed, variantOf } from "./mysql-rs-nodes.ts";

/** Variants whose name is more than one word. */
const SPELLED: Record<string, string> = {
  DoublePrecision: "double precision",
  CharacterVarying: "character varying",
  CharVarying: "char varying",
};

export function rsTypeOf(dataType: unknown): { type: string; typeName: string } {
  const [variant, body] = variantOf(dataType);
  if (variant === "Custom") {
    const [name, args] = Array.isArray(body) ? body : [];
    if (Array.isArray(args) && args.length) unclaimed("a custom type with arguments");
    const parts = nameParts(name);
    return { type: canonicalType(parts.join(".")), typeName: canonicalType(parts.join(".")) };
  }
  if (variant === "Enum" || variant === "Set") unclaimed("ENUM and SET types");
  const unsigned = variant.endsWith("Unsigned");
  const base = unsigned ? variant.slice(0, -"Unsigned".length) : variant;
  const name = SPELLED[base] ?? base.toLowerCase();
  return { type: canonicalType(name, typeArguments(base, body), unsigned ? ["unsigned"] : []), typeName: canonicalType(name) };
}

/** A type's arguments: a length, precision and scale, or a fractional-seconds precision. */
function typeArguments(variant: string, body: unknown): number[] {
  if (body == null || body === "None") return [];
  if (typeof body === "number") return [body];
  if (variant === "Timestamp" || variant === "Time") {
    const [precision, timezone] = Array.isArray(body) ? body : [];
    if (timezone !== "None") unclaimed("a type with a time zone");
    return typeof precision === "number" ? [precision] : [];
  }
  const [kind, value] = variantOf(body);
  if (kind === "PrecisionAndScale" && Array.isArray(value)) return value.filter((v): v is number => typeof v === "number");
  if (kind === "Precision" && typeof value === "number") return [value];
  if (kind === "IntegerLength") {
    const length = node(value);
    if (length?.unit != null) unclaimed("a length with a unit");
    if (typeof length?.length === "number") return [length.length];
  }
  return unclaimed(`the arguments of a ${variant} type`);
}
