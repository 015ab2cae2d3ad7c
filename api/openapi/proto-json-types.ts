// The JSON schema of each proto3 JSON form that is not a plain message:
// scalars and the well-known types with a special JSON mapping.
// https://protobuf.dev/programming-guides/json/
import { ScalarType } from "@bufbuild/protobuf";

/** A JSON schema (the OpenAPI 3.0 dialect), built as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

export function scalarSchema(type: ScalarType): JsonSchema {
  switch (type) {
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.BYTES:
      return { type: "string", format: "byte" };
    case ScalarType.DOUBLE:
      return { type: "number", format: "double" };
    case ScalarType.FLOAT:
      return { type: "number", format: "float" };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: "integer", format: "int32" };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: "integer", format: "int64", minimum: 0 };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return { type: "string", format: "int64" };
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { type: "string", format: "uint64" };
  }
}

const WELL_KNOWN_MESSAGES: ReadonlyMap<string, JsonSchema> = new Map<string, JsonSchema>([
  ["google.protobuf.Timestamp", { type: "string", format: "date-time", example: "2024-01-15T10:00:00Z" }],
  ["google.protobuf.Duration", { type: "string", pattern: "^-?[0-9]+(\\.[0-9]{1,9})?s$", example: "3600s" }],
  ["google.protobuf.FieldMask", { type: "string", description: "Comma-separated field paths.", example: "title,description" }],
  ["google.protobuf.Struct", { type: "object", additionalProperties: true }],
  ["google.protobuf.Value", {}],
  ["google.protobuf.ListValue", { type: "array", items: {} }],
  ["google.protobuf.Empty", { type: "object" }],
  ["google.protobuf.Any", { type: "object", properties: { "@type": { type: "string" } }, required: ["@type"], additionalProperties: true }],
  ["google.protobuf.DoubleValue", scalarSchema(ScalarType.DOUBLE)],
  ["google.protobuf.FloatValue", scalarSchema(ScalarType.FLOAT)],
  ["google.protobuf.Int64Value", scalarSchema(ScalarType.INT64)],
  ["google.protobuf.UInt64Value", scalarSchema(ScalarType.UINT64)],
  ["google.protobuf.Int32Value", scalarSchema(ScalarType.INT32)],
  ["google.protobuf.UInt32Value", scalarSchema(ScalarType.UINT32)],
  ["google.protobuf.BoolValue", scalarSchema(ScalarType.BOOL)],
  ["google.protobuf.StringValue", scalarSchema(ScalarType.STRING)],
  ["google.protobuf.BytesValue", scalarSchema(ScalarType.BYTES)],
]);

const WELL_KNOWN_ENUMS: ReadonlyMap<string, JsonSchema> = new Map<string, JsonSchema>([
  ["google.protobuf.NullValue", { type: "object", nullable: true, enum: [null] }],
]);

/** Well-known messages whose JSON form a query parameter can carry. */
export const QUERY_STRING_MESSAGES: ReadonlySet<string> = new Set([
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
  "google.protobuf.FieldMask",
  "google.protobuf.DoubleValue",
  "google.protobuf.FloatValue",
  "google.protobuf.Int64Value",
  "google.protobuf.UInt64Value",
  "google.protobuf.Int32Value",
  "google.protobuf.UInt32Value",
  "google.protobuf.BoolValue",
  "google.protobuf.StringValue",
  "google.protobuf.BytesValue",
]);

/** The inline schema of a well-known message (a fresh copy), or undefined for any other message. */
export function wellKnownMessageSchema(typeName: string): JsonSchema | undefined {
  const schema = WELL_KNOWN_MESSAGES.get(typeName);
  return schema && structuredClone(schema);
}

export function wellKnownEnumSchema(typeName: string): JsonSchema | undefined {
  const schema = WELL_KNOWN_ENUMS.get(typeName);
  return schema && structuredClone(schema);
}
