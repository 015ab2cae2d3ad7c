// A REST body ignores the fields its message does not know (contract §1.3,
// forward compatibility): they are dropped before the body is decoded, at any
// depth, so that the decode itself stays strict about what it does know — an
// unknown enum value or a malformed value is still refused.
import type { DescField, DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";

/** `json` without the keys `schema` does not know (by JSON name or proto name), in nested messages, lists and maps too. */
export function knownFieldsOnly(schema: DescMessage, json: JsonObject): JsonObject {
  if (hasOwnJsonForm(schema)) return json;
  const known: JsonObject = {};
  for (const [key, value] of Object.entries(json)) {
    const field = schema.fields.find((f) => f.jsonName === key || f.name === key);
    if (field) known[key] = knownValue(field, value);
  }
  return known;
}

function knownValue(field: DescField, value: JsonValue): JsonValue {
  switch (field.fieldKind) {
    case "message":
      return isObject(value) ? knownFieldsOnly(field.message, value) : value;
    case "list":
      return field.listKind === "message" && Array.isArray(value)
        ? value.map((item) => (isObject(item) ? knownFieldsOnly(field.message, item) : item))
        : value;
    case "map":
      return field.mapKind === "message" && isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isObject(item) ? knownFieldsOnly(field.message, item) : item]))
        : value;
    default:
      return value;
  }
}

/** Well-known types (Struct, Value, Any, Timestamp, …) have JSON forms of their own: left to the decoder as written. */
function hasOwnJsonForm(schema: DescMessage): boolean {
  return schema.typeName.startsWith("google.protobuf.");
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
