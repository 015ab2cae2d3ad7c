// protobuf-es descriptors → OpenAPI component schemas of their proto3 JSON
// form. Messages and enums are components named by their full type name;
// well-known types are inlined.
import { getOption, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { FieldBehavior, field_behavior } from "../../shared/gen/google/api/field_behavior_pb.js";
import { scalarSchema, wellKnownEnumSchema, wellKnownMessageSchema, type JsonSchema } from "./proto-json-types.ts";

export type { JsonSchema } from "./proto-json-types.ts";

const COMPONENT_REF_PREFIX = "#/components/schemas/";

export function componentRef(name: string): JsonSchema {
  return { $ref: `${COMPONENT_REF_PREFIX}${name}` };
}

/** A message's schema where it is used: inline for well-known types, else a reference. */
export function messageReference(message: DescMessage): JsonSchema {
  return wellKnownMessageSchema(message.typeName) ?? componentRef(message.typeName);
}

export function enumReference(desc: DescEnum): JsonSchema {
  return wellKnownEnumSchema(desc.typeName) ?? componentRef(desc.typeName);
}

/** A field's schema with its annotations (readOnly, writeOnly, deprecated). */
export function fieldSchema(field: DescField): JsonSchema {
  return annotate(fieldTypeSchema(field), fieldAnnotations(field));
}

/** A field's schema from its type alone. */
export function fieldTypeSchema(field: DescField): JsonSchema {
  switch (field.fieldKind) {
    case "scalar":
      return scalarSchema(field.scalar);
    case "enum":
      return enumReference(field.enum);
    case "message":
      return messageReference(field.message);
    case "list":
      return { type: "array", items: elementSchema(field) };
    case "map":
      return { type: "object", additionalProperties: elementSchema(field) };
  }
}

export function isOutputOnly(field: DescField): boolean {
  return getOption(field, field_behavior).includes(FieldBehavior.OUTPUT_ONLY);
}

export function messageComponentSchema(message: DescMessage): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of message.fields) properties[field.jsonName] = fieldSchema(field);
  return { type: "object", properties, ...(message.deprecated ? { deprecated: true } : {}) };
}

export function enumComponentSchema(desc: DescEnum): JsonSchema {
  return { type: "string", enum: desc.values.map((value) => value.name), ...(desc.deprecated ? { deprecated: true } : {}) };
}

/** The components of every message and enum reachable from the roots, by full type name. */
export function buildComponentSchemas(roots: Iterable<DescMessage>): Record<string, JsonSchema> {
  const components = new Map<string, JsonSchema>();
  const pending = [...roots];
  for (let message = pending.pop(); message; message = pending.pop()) {
    if (components.has(message.typeName) || wellKnownMessageSchema(message.typeName)) continue;
    components.set(message.typeName, messageComponentSchema(message));
    for (const field of message.fields) {
      if (field.message) pending.push(field.message);
      if (field.enum && !components.has(field.enum.typeName) && !wellKnownEnumSchema(field.enum.typeName)) {
        components.set(field.enum.typeName, enumComponentSchema(field.enum));
      }
    }
  }
  return Object.fromEntries([...components].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function elementSchema(field: Extract<DescField, { fieldKind: "list" | "map" }>): JsonSchema {
  if (field.message) return messageReference(field.message);
  if (field.enum) return enumReference(field.enum);
  return scalarSchema(field.scalar);
}

function fieldAnnotations(field: DescField): JsonSchema {
  const behaviors = getOption(field, field_behavior);
  const annotations: JsonSchema = {};
  if (behaviors.includes(FieldBehavior.OUTPUT_ONLY)) annotations["readOnly"] = true;
  if (behaviors.includes(FieldBehavior.INPUT_ONLY)) annotations["writeOnly"] = true;
  if (field.deprecated) annotations["deprecated"] = true;
  return annotations;
}

/** OpenAPI 3.0 ignores every keyword beside a $ref, so an annotated reference goes through allOf. */
function annotate(schema: JsonSchema, annotations: JsonSchema): JsonSchema {
  if (Object.keys(annotations).length === 0) return schema;
  if ("$ref" in schema) return { allOf: [schema], ...annotations };
  return { ...schema, ...annotations };
}
