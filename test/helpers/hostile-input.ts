// Hostile requests built from the descriptors, so that a new RPC or field is
// covered by itself: every string an RPC's request can hold (nested messages,
// lists, map keys and values, Struct payloads, update masks), as the JSON
// that sets it alone and the field path an error must name; every list with
// its element limit; and each REST binding's URL with chosen variable values.
import type { DescField, DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";
import { DEFAULT_MAX_ITEMS, DEFAULT_MAX_LENGTH, limitsOf } from "../../api/transport/input-limits.ts";
import type { RestBinding } from "../../api/transport/rest/bindings.ts";
import { quoted } from "../../shared/platform/errors.ts";

export const NUL_TEXT = "a\u0000b";

/** One string of a request: where it sits and how long it may be. */
export interface StringTarget {
  /** The path an error names when the string is `value` (map keys show in it). */
  path(value: string): string;
  /** The request's JSON with only this string set to `value`. */
  json(value: string): JsonObject;
  maxLength: number;
  /** The length option is the proto's own, not the default. */
  declared: boolean;
}

/** One repeated string field of a request. */
export interface ListTarget {
  path: string;
  /** The request's JSON with this list holding `count` short strings. */
  json(count: number): JsonObject;
  maxItems: number;
  declared: boolean;
}

type Wrap = (inner: JsonValue) => JsonObject;

const MAX_DEPTH = 5;
// Well-known types whose JSON is not an object of their fields and that hold no string.
const SCALAR_JSON = new Set(["google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.Empty"]);

export function stringTargets(desc: DescMessage): StringTarget[] {
  const found: StringTarget[] = [];
  walk(desc, "", (inner) => inner as JsonObject, [desc.typeName], { strings: found, lists: [] });
  return found;
}

export function listTargets(desc: DescMessage): ListTarget[] {
  const found: ListTarget[] = [];
  walk(desc, "", (inner) => inner as JsonObject, [desc.typeName], { strings: [], lists: found });
  return found;
}

interface Found {
  strings: StringTarget[];
  lists: ListTarget[];
}

function walk(desc: DescMessage, prefix: string, outer: Wrap, stack: string[], found: Found): void {
  for (const field of desc.fields) {
    const path = `${prefix}${field.name}`;
    const wrap: Wrap = (inner) => outer({ [field.jsonName]: inner });
    const { maxLength, maxItems } = limitsOf(field);
    const declared = { length: maxLength !== DEFAULT_MAX_LENGTH, items: maxItems !== DEFAULT_MAX_ITEMS };
    if (field.fieldKind === "scalar" && field.scalar === 9) {
      found.strings.push({ path: () => path, json: wrap, maxLength, declared: declared.length });
    } else if (field.fieldKind === "list" && field.listKind === "scalar" && field.scalar === 9) {
      found.strings.push({ path: () => `${path}[0]`, json: (v) => wrap([v]), maxLength, declared: declared.length });
      found.lists.push({ path, json: (n) => wrap(Array.from({ length: n }, (_, i) => `x${i}`)), maxItems, declared: declared.items });
    } else if (field.fieldKind === "map" && field.mapKey === 9) {
      found.strings.push({ path: (k) => `${path}[${quoted(k)}]`, json: (k) => wrap({ [k]: mapValue(field) }), maxLength: DEFAULT_MAX_LENGTH, declared: false });
      if (field.mapKind === "scalar" && field.scalar === 9) {
        found.strings.push({ path: () => `${path}["k"]`, json: (v) => wrap({ k: v }), maxLength, declared: declared.length });
      } else if (field.mapKind === "message") {
        nested(field.message, `${path}["k"].`, (inner) => wrap({ k: inner }), stack, found);
      }
    } else if (field.fieldKind === "message") {
      nested(field.message, `${path}.`, wrap, stack, found);
    } else if (field.fieldKind === "list" && field.listKind === "message") {
      nested(field.message, `${path}[0].`, (inner) => wrap([inner]), stack, found);
    }
  }
}

function nested(desc: DescMessage, prefix: string, wrap: Wrap, stack: string[], found: Found): void {
  if (desc.typeName === "google.protobuf.Struct") {
    found.strings.push({ path: () => `${prefix}fields["k"].string_value`, json: (v) => wrap({ k: v }), maxLength: DEFAULT_MAX_LENGTH, declared: false });
  } else if (desc.typeName === "google.protobuf.FieldMask") {
    found.strings.push({ path: () => `${prefix}paths[0]`, json: (v) => wrap(v), maxLength: DEFAULT_MAX_LENGTH, declared: false });
  } else if (!SCALAR_JSON.has(desc.typeName) && !stack.includes(desc.typeName) && stack.length < MAX_DEPTH) {
    walk(desc, prefix, wrap, [...stack, desc.typeName], found);
  }
}

function mapValue(field: DescField & { fieldKind: "map" }): JsonValue {
  if (field.mapKind === "message") return {};
  if (field.mapKind === "enum") return 0;
  return field.scalar === 9 ? "v" : field.scalar === 8 ? true : 0;
}

/** A REST binding's URL, each route parameter of each variable filled by `value(variableIndex)`. */
export function restUrl(binding: RestBinding, value: (variable: number) => string): string {
  let index = 0;
  return binding.template.replace(/\{([a-z_][a-z0-9_.]*)(?:=([^}]+))?\}/gi, (_, _field: string, pattern?: string) => {
    const filled = value(index++);
    return (pattern ?? "*").split("/").map((segment) => (segment.startsWith("*") ? filled : segment)).join("/");
  });
}
