// List filters (contract §2.3): parses `filter`, checks each term against the
// fields a list supports (§2.4) and converts values to their types. Pure: the
// stores turn the resulting terms into SQL.
//
// `me` (for creator, actor, approver) is kept as the raw string "me"; the
// caller substitutes the signed-in principal, since only it knows who that is.
import { invalidArgument, quoted } from "../errors.ts";
import { fieldResolver, unknownField } from "./field-name.ts";
import { readTerms, type FilterOp, type RawTerm } from "./filter-syntax.ts";

export type { FilterOp } from "./filter-syntax.ts";

/**
 * How a field compares. `text`, `enum` and `bool` match exactly; `substring`
 * reads `:` as "contains" and `prefix` as "starts with" (both match exactly on
 * `=`). Only `time` and `number` take `>`, `>=`, `<` and `<=`.
 */
export type FieldKind = "text" | "substring" | "prefix" | "time" | "number" | "enum" | "bool";

export interface FieldSpec {
  kind: FieldKind;
  /** The accepted values of an `enum` field (case-sensitive). */
  values?: readonly string[];
  /** Other names for the field; terms using them report the canonical key. */
  aliases?: readonly string[];
}

/** A list's filter fields, keyed by canonical name (snake_case or lowerCamelCase). */
export type FilterFields = Readonly<Record<string, FieldSpec>>;

/** A string for text, substring, prefix and enum fields; Date, number or boolean for the others. */
export type FilterValue = string | number | boolean | Date;

export interface FilterTerm {
  /** The canonical key from the field spec, whatever name the request used. */
  field: string;
  op: FilterOp;
  value: FilterValue;
}

const EQUALITY_OPS: readonly FilterOp[] = [":", "=", "!="];
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const RFC3339 =
  /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})T(?<hour>\d{2}):(?<minute>\d{2}):(?<second>\d{2})(?:\.\d+)?(?:Z|[+-](?<offsetHour>\d{2}):(?<offsetMinute>\d{2}))$/i;

/** Parses `filter` against `fields`; an empty or blank filter gives no terms. */
export function parseFilter(filter: string | undefined, fields: FilterFields): FilterTerm[] {
  const resolver = fieldResolver(Object.entries(fields).map(([key, spec]) => [key, spec.aliases ?? []] as const));
  return readTerms(filter ?? "").map((raw) => {
    const field = resolver.resolve(raw.field);
    const spec = field === undefined ? undefined : fields[field];
    if (field === undefined || spec === undefined) throw unknownField("filter", raw.field, resolver.supported);
    return checkTerm(field, spec, raw);
  });
}

function checkTerm(field: string, spec: FieldSpec, raw: RawTerm): FilterTerm {
  const ordered = spec.kind === "time" || spec.kind === "number";
  if (!ordered && !EQUALITY_OPS.includes(raw.op)) {
    throw invalidArgument(`operator ${quoted(raw.op)} is not supported for field ${quoted(field)}; use ":", "=" or "!="`);
  }
  return { field, op: raw.op, value: convertValue(field, spec, raw.value) };
}

function convertValue(field: string, spec: FieldSpec, value: string): FilterValue {
  switch (spec.kind) {
    case "time":
      return parseTime(field, value);
    case "number":
      return parseNumber(field, value);
    case "bool":
      return parseBool(field, value);
    case "enum":
      return checkEnum(field, spec.values ?? [], value);
    default:
      return value;
  }
}

function parseNumber(field: string, value: string): number {
  const number = Number(value);
  if (!NUMBER.test(value) || !Number.isFinite(number)) {
    throw invalidArgument(`filter: invalid number ${quoted(value)} for field ${quoted(field)}`);
  }
  return number;
}

function parseBool(field: string, value: string): boolean {
  const lower = value.toLowerCase();
  if (lower === "true" || lower === "false") return lower === "true";
  throw invalidArgument(`filter: invalid boolean ${quoted(value)} for field ${quoted(field)}; use true or false`);
}

function checkEnum(field: string, accepted: readonly string[], value: string): string {
  if (accepted.includes(value)) return value;
  throw invalidArgument(`filter: invalid value ${quoted(value)} for field ${quoted(field)}; accepted: ${accepted.join(", ")}`);
}

function parseTime(field: string, value: string): Date {
  const time = parseRfc3339(value);
  if (time === undefined) {
    throw invalidArgument(
      `filter: invalid time ${quoted(value)} for field ${quoted(field)}; use RFC 3339, e.g. "2026-01-01T00:00:00Z"`,
    );
  }
  return time;
}

/** An RFC 3339 date-time, or undefined; checks each part, which Date.parse alone does not. */
export function parseRfc3339(text: string): Date | undefined {
  const groups = RFC3339.exec(text)?.groups;
  if (groups === undefined) return undefined;
  const part = (name: string): number => Number(groups[name] ?? 0);
  const month = part("month");
  const dateOk = month >= 1 && month <= 12 && part("day") >= 1 && part("day") <= daysInMonth(part("year"), month);
  const clockOk = part("hour") <= 23 && part("minute") <= 59 && part("second") <= 59;
  const offsetOk = part("offsetHour") <= 23 && part("offsetMinute") <= 59;
  if (!dateOk || !clockOk || !offsetOk) return undefined;
  const time = Date.parse(text.toUpperCase());
  return Number.isNaN(time) || time < EARLIEST ? undefined : new Date(time);
}

// The store's timestamps begin with year 1 (there is no year 0).
const EARLIEST = Date.parse("0001-01-01T00:00:00Z");

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
