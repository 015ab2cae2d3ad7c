// Builds the RPC's request message from a REST request: body, then query
// parameters, then path variables (which win), parsed once with fromJson.
// Fields the message does not know are ignored (contract §1.3); everything
// else is decoded strictly.
import {
  create,
  fromJson,
  ScalarType,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type Message,
} from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { invalidArgument, quoted, snakeCase } from "../../../shared/platform/index.ts";
import { knownFieldsOnly } from "./known-fields.ts";

export interface RestInput {
  /** google.api.http `body`: "*", a field name, or "" for none. */
  bodyField: string;
  body: unknown;
  query: Record<string, string | string[] | undefined>;
  pathValues: Map<string, string>;
}

// Message types whose JSON form is a string, so a query value passes as is.
const STRING_JSON_MESSAGES = new Set([
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
  "google.protobuf.StringValue",
  "google.protobuf.BytesValue",
  "google.protobuf.Int64Value",
  "google.protobuf.UInt64Value",
]);

interface Assignment {
  path: DescField[];
  value: JsonValue;
}

export function buildRequestMessage(schema: DescMessage, input: RestInput): Message {
  const json: JsonObject = knownFieldsOnly(schema, bodyJson(schema, input.bodyField, input.body));
  const masks: { path: DescField[]; paths: string[] }[] = [];
  for (const [key, raw] of Object.entries(input.query)) {
    if (raw === undefined) continue;
    const path = resolvePath(schema, key);
    if (!path || path[0]!.name === input.bodyField) continue; // unknown keys are ignored
    const leaf = path[path.length - 1]!;
    // With body "*" every field travels in the body, but an update mask may
    // always come as a query parameter (contract §0.4).
    if (isFieldMask(leaf)) masks.push({ path, paths: maskPaths(raw) });
    else if (input.bodyField !== "*") assign(json, { path, value: queryValue(key, leaf, raw) });
  }
  for (const [fieldPath, value] of input.pathValues) {
    const path = resolvePath(schema, fieldPath);
    if (!path) throw new Error(`path variable ${fieldPath} names no field of ${schema.typeName}`);
    assign(json, { path, value });
  }
  let message: Message;
  try {
    // Strict about known fields: an unknown enum value or a malformed value is refused, never dropped.
    message = fromJson(schema, json);
  } catch (error) {
    throw invalidArgument(`invalid request: ${(error as Error).message}`);
  }
  for (const mask of masks) setMask(message, mask.path, mask.paths);
  return message;
}

function bodyJson(schema: DescMessage, bodyField: string, body: unknown): JsonObject {
  if (!bodyField || body === undefined || body === null) return {};
  if (bodyField === "*") {
    if (typeof body !== "object" || Array.isArray(body)) throw invalidArgument("the request body must be a JSON object");
    return body as JsonObject; // copied by knownFieldsOnly before path and query values are assigned
  }
  const field = schema.fields.find((f) => f.name === bodyField);
  if (!field) throw new Error(`body field ${bodyField} names no field of ${schema.typeName}`);
  return { [field.jsonName]: body as JsonValue };
}

/** Resolves "a.b.c" (snake_case or lowerCamelCase segments) to fields. */
function resolvePath(schema: DescMessage, dotted: string): DescField[] | undefined {
  const path: DescField[] = [];
  let message: DescMessage | undefined = schema;
  for (const segment of dotted.split(".")) {
    const field: DescField | undefined = message?.fields.find((f) => f.name === segment || f.jsonName === segment);
    if (!field) return undefined;
    path.push(field);
    message = field.fieldKind === "message" ? field.message : undefined;
  }
  return path;
}

function assign(json: JsonObject, { path, value }: Assignment): void {
  let target = json;
  for (const field of path.slice(0, -1)) {
    const next = target[field.jsonName];
    target = (target[field.jsonName] = typeof next === "object" && next !== null && !Array.isArray(next) ? next : {}) as JsonObject;
  }
  target[path[path.length - 1]!.jsonName] = value;
}

function queryValue(key: string, field: DescField, raw: string | string[]): JsonValue {
  const values = Array.isArray(raw) ? raw : [raw];
  if (field.fieldKind === "list") {
    const items = values.flatMap((v) => v.split(","));
    if (field.listKind === "message") throw invalidArgument(`query parameter ${key} cannot be given in the query string`);
    return items.map((item) => scalarValue(key, field.listKind === "enum" ? "enum" : field.scalar, item));
  }
  if (values.length > 1) throw invalidArgument(`query parameter ${key} must be given once`);
  const text = values[0]!;
  switch (field.fieldKind) {
    case "scalar":
      return scalarValue(key, field.scalar, text);
    case "enum":
      return scalarValue(key, "enum", text);
    case "message":
      if (STRING_JSON_MESSAGES.has(field.message.typeName)) return text;
      if (field.message.typeName === "google.protobuf.BoolValue") return scalarValue(key, ScalarType.BOOL, text);
      if (field.message.typeName.endsWith("Value")) return scalarValue(key, ScalarType.DOUBLE, text);
      throw invalidArgument(`query parameter ${key} cannot be given in the query string`);
    default:
      throw invalidArgument(`query parameter ${key} cannot be given in the query string`);
  }
}

function scalarValue(key: string, type: ScalarType | "enum", text: string): JsonValue {
  if (type === "enum") return /^-?\d+$/.test(text) ? Number(text) : text;
  switch (type) {
    case ScalarType.BOOL:
      if (text === "true" || text === "1" || text === "") return true;
      if (text === "false" || text === "0") return false;
      throw invalidArgument(`query parameter ${key} must be true or false, got ${quoted(text)}`);
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
    case ScalarType.INT32:
    case ScalarType.UINT32:
    case ScalarType.SINT32:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32: {
      const number = Number(text);
      if (text.trim() === "" || Number.isNaN(number)) throw invalidArgument(`query parameter ${key} must be a number, got ${quoted(text)}`);
      return number;
    }
    default:
      return text; // strings, bytes (base64) and 64-bit integers as JSON strings
  }
}

function isFieldMask(field: DescField): boolean {
  return field.fieldKind === "message" && field.message.typeName === "google.protobuf.FieldMask";
}

/** Mask paths in snake_case: "passwordRestriction.minLength" → "password_restriction.min_length". */
function maskPaths(raw: string | string[]): string[] {
  const values = Array.isArray(raw) ? raw : [raw];
  return values
    .flatMap((v) => v.split(","))
    .map((p) => p.trim())
    .filter(Boolean)
    .map(snakeCase);
}

/** Sets a mask given in the query; one also given in the body must name the same paths. */
function setMask(message: Message, path: DescField[], paths: string[]): void {
  let target = message as unknown as Record<string, unknown>;
  for (const field of path.slice(0, -1)) {
    target[field.localName] ??= create(field.message!, {});
    target = target[field.localName] as Record<string, unknown>;
  }
  const leaf = path[path.length - 1]!;
  const inBody = (target[leaf.localName] as { paths: string[] } | undefined)?.paths ?? [];
  if (inBody.length > 0 && inBody.join(",") !== paths.join(",")) {
    throw invalidArgument(`${leaf.jsonName} is given in the body and in the query with different paths; give it once`);
  }
  target[leaf.localName] = create(FieldMaskSchema, { paths });
}
