// The query parameters of a REST binding, as the transcoder reads them
// (request-message.ts): the leaf fields of the request message that neither
// the path nor the body binds, named by their dotted lowerCamelCase path.
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import type { RestBinding } from "../transport/rest/bindings.ts";
import { QUERY_STRING_MESSAGES } from "./proto-json-types.ts";
import { fieldSchema, isOutputOnly, type JsonSchema } from "./schemas.ts";

/** Top-level fields are depth 1; "filter.state" is depth 2. */
const MAX_QUERY_DEPTH = 2;

interface QueryWalk {
  /** Proto field paths bound by the path or the body. */
  bound: ReadonlySet<string>;
  jsonPrefix: string;
  protoPrefix: string;
  depth: number;
  properties: Record<string, JsonSchema>;
}

/** The querystring schema of a binding, or undefined when it takes no query parameters. */
export function querystringSchema(binding: RestBinding): JsonSchema | undefined {
  if (binding.bodyField === "*") return undefined;
  const bound = new Set(binding.compiled.variables.map((variable) => variable.fieldPath));
  if (binding.bodyField) bound.add(binding.bodyField);
  const properties: Record<string, JsonSchema> = {};
  addQueryFields(binding.method.input, { bound, jsonPrefix: "", protoPrefix: "", depth: 1, properties });
  return Object.keys(properties).length > 0 ? { type: "object", properties } : undefined;
}

function addQueryFields(message: DescMessage, walk: QueryWalk): void {
  for (const field of message.fields) {
    const protoPath = walk.protoPrefix + field.name;
    if (walk.bound.has(protoPath) || isOutputOnly(field)) continue;
    const jsonPath = walk.jsonPrefix + field.jsonName;
    if (isQueryLeaf(field)) {
      walk.properties[jsonPath] = fieldSchema(field);
    } else if (field.fieldKind === "message" && walk.depth < MAX_QUERY_DEPTH) {
      addQueryFields(field.message, { ...walk, jsonPrefix: `${jsonPath}.`, protoPrefix: `${protoPath}.`, depth: walk.depth + 1 });
    }
  }
}

function isQueryLeaf(field: DescField): boolean {
  switch (field.fieldKind) {
    case "scalar":
    case "enum":
      return true;
    case "list":
      return field.listKind !== "message";
    case "message":
      return QUERY_STRING_MESSAGES.has(field.message.typeName);
    case "map":
      return false;
  }
}
