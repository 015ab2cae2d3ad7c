// The OpenAPI description of one REST binding, as a Fastify route schema
// for @fastify/swagger: path and query parameters, body and responses.
import type { DescMessage } from "@bufbuild/protobuf";
import type { FastifySchema } from "fastify";
import { methodOptions } from "../transport/method-options.ts";
import type { RestBinding } from "../transport/rest/bindings.ts";
import { FORM_CONTENT_TYPE } from "../transport/rest/form-body.ts";
import { NDJSON_CONTENT_TYPE } from "../transport/rest/ndjson-stream.ts";
import type { PathVariable } from "../transport/rest/path-template.ts";
import { ERROR_SCHEMA_NAME } from "./error-schema.ts";
import { querystringSchema } from "./query-params.ts";
import { componentRef, fieldTypeSchema, messageReference, type JsonSchema } from "./schemas.ts";

/** A download's body is the file itself (api/transport/rest/download.ts). */
const DOWNLOAD_RESPONSE = {
  description: "The file, streamed; Content-Type names its media type (e.g. text/csv).",
  headers: { "content-disposition": { type: "string", description: "attachment; filename=\"…\"" } },
  content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
};

/** One route schema per binding; a method's additional bindings get numbered operation ids. */
export function operationSchemas(bindings: readonly RestBinding[]): Map<RestBinding, FastifySchema> {
  const schemas = new Map<RestBinding, FastifySchema>();
  const seen = new Map<string, number>();
  for (const binding of bindings) {
    const baseId = `${binding.service.name}_${binding.method.name}`;
    const count = (seen.get(baseId) ?? 0) + 1;
    seen.set(baseId, count);
    schemas.set(binding, operationSchema(binding, count === 1 ? baseId : `${baseId}_${count}`));
  }
  return schemas;
}

function operationSchema(binding: RestBinding, operationId: string): FastifySchema {
  const schema: FastifySchema = {
    operationId,
    tags: [binding.service.name],
    response: {
      200: successResponse(binding),
      default: { ...componentRef(ERROR_SCHEMA_NAME), description: "The error, in the Connect JSON shape." },
    },
  };
  if (binding.method.deprecated || binding.service.deprecated) schema.deprecated = true;
  const params = pathParamsSchema(binding);
  if (params) schema.params = params;
  const querystring = querystringSchema(binding);
  if (querystring) schema.querystring = querystring;
  const body = requestBodySchema(binding);
  // A method taking browser form posts documents both encodings (accept_form_body).
  if (body) schema.body = methodOptions(binding.method).acceptFormBody ? { content: { "application/json": { schema: body }, [FORM_CONTENT_TYPE]: { schema: body } } } : body;
  return schema;
}

/** Every route parameter of the binding's URL, described by the field it fills. */
function pathParamsSchema(binding: RestBinding): JsonSchema | undefined {
  const descriptions = new Map<string, string>();
  for (const variable of binding.compiled.variables) {
    for (const part of variable.parts) if ("param" in part) descriptions.set(part.param, describeVariable(variable));
  }
  const properties: Record<string, JsonSchema> = {};
  for (const param of routeParamNames(binding.compiled.url)) {
    const description = descriptions.get(param);
    properties[param] = description ? { type: "string", description } : { type: "string" };
  }
  const names = Object.keys(properties);
  return names.length > 0 ? { type: "object", properties, required: names } : undefined;
}

/** "name" for `{name}`, "name = workspaces/{p0}/databases/{p1}" for a patterned variable. */
function describeVariable(variable: PathVariable): string {
  const pattern = variable.parts.map((part) => ("literal" in part ? part.literal : `{${part.param}}`)).join("/");
  return /^\{[^}]+\}$/.test(pattern) ? variable.fieldPath : `${variable.fieldPath} = ${pattern}`;
}

/** ":p0(^[^/:]+)" parameters, and "*" for a trailing wildcard ("**"). */
function routeParamNames(url: string): string[] {
  const names = [...url.matchAll(/:(\w+)\(/g)].map((match) => match[1]!);
  if (url.endsWith("*")) names.push("*");
  return names;
}

function requestBodySchema(binding: RestBinding): JsonSchema | undefined {
  if (binding.bodyField === "") return undefined;
  if (binding.bodyField === "*") return messageReference(binding.method.input);
  return namedFieldSchema(binding.method.input, binding.bodyField);
}

function successResponse(binding: RestBinding): JsonSchema {
  switch (binding.kind) {
    case "unary":
      return { ...successSchema(binding), description: "OK" };
    case "download":
      return DOWNLOAD_RESPONSE;
    case "ndjson":
      return ndjsonResponse(binding);
  }
}

/** A stream of JSON lines (api/transport/rest/ndjson-stream.ts); the schema is one line's. */
function ndjsonResponse(binding: RestBinding): JsonSchema {
  const line = {
    type: "object",
    properties: { result: successSchema(binding), error: componentRef(ERROR_SCHEMA_NAME) },
  };
  return {
    description: "Newline-delimited JSON, one line per message: {\"result\": …}; an empty line is a heartbeat, and a line {\"error\": …} ends a failed stream.",
    content: { [NDJSON_CONTENT_TYPE]: { schema: line } },
  };
}

function successSchema(binding: RestBinding): JsonSchema {
  if (!binding.responseBody) return messageReference(binding.method.output);
  return namedFieldSchema(binding.method.output, binding.responseBody);
}

function namedFieldSchema(message: DescMessage, fieldName: string): JsonSchema {
  const field = message.fields.find((f) => f.name === fieldName);
  if (!field) throw new Error(`${message.typeName} has no field ${fieldName} (google.api.http body or response_body)`);
  return fieldTypeSchema(field);
}
