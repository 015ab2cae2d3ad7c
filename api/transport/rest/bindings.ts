// The REST bindings of every served method, from its google.api.http option:
// unary methods, server-streaming downloads, and other server streams as
// newline-delimited JSON.
import {
  getOption,
  hasOption,
  toJson,
  type DescMethod,
  type DescMethodServerStreaming,
  type DescMethodUnary,
  type DescService,
  type JsonValue,
  type Message,
} from "@bufbuild/protobuf";
import { http } from "../../../shared/gen/google/api/annotations_pb.js";
import type { HttpRule } from "../../../shared/gen/google/api/http_pb.js";
import { compileTemplate, type CompiledTemplate } from "./path-template.ts";
import { isServerStreaming, isUnary } from "../services.ts";
import { checkDownload } from "./download.ts";
import { jsonText } from "../json-text.ts";

export type HttpVerb = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface RestBindingBase {
  service: DescService;
  verb: HttpVerb;
  /** The template as written in the proto. */
  template: string;
  compiled: CompiledTemplate;
  /** "*" for the whole body, a field name, or "" for none. */
  bodyField: string;
  responseBody: string;
}

/**
 * A unary method answers JSON. A server-streaming method whose response has
 * a `content` field is a download whose response body is the file its
 * messages carry (download.ts); any other server stream answers one JSON
 * line per message (ndjson-stream.ts).
 */
export type RestBinding =
  | (RestBindingBase & { kind: "unary"; method: DescMethodUnary })
  | (RestBindingBase & { kind: "download"; method: DescMethodServerStreaming })
  | (RestBindingBase & { kind: "ndjson"; method: DescMethodServerStreaming });

export function restBindings(services: readonly DescService[]): RestBinding[] {
  const bindings: RestBinding[] = [];
  for (const service of services) {
    for (const method of service.methods) {
      if (!hasOption(method, http)) continue;
      const rule = getOption(method, http);
      for (const one of [rule, ...rule.additionalBindings]) bindings.push(binding(service, method, one));
    }
  }
  return bindings;
}

function binding(service: DescService, method: DescMethod, rule: HttpRule): RestBinding {
  const rpc = `${service.typeName}.${method.name}`;
  const { verb, template } = verbAndTemplate(rule, rpc);
  const base = { service, verb, template, compiled: compileTemplate(template), bodyField: rule.body, responseBody: rule.responseBody };
  if (isUnary(method)) return { ...base, kind: "unary", method };
  if (isServerStreaming(method)) {
    if (!method.output.fields.some((f) => f.name === "content")) return { ...base, kind: "ndjson", method };
    checkDownload(method);
    return { ...base, kind: "download", method };
  }
  throw new Error(`${rpc}: a ${method.methodKind} method cannot have a google.api.http binding`);
}

function verbAndTemplate(rule: HttpRule, rpc: string): { verb: HttpVerb; template: string } {
  const pattern = rule.pattern;
  switch (pattern.case) {
    case "get":
      return { verb: "GET", template: pattern.value };
    case "post":
      return { verb: "POST", template: pattern.value };
    case "put":
      return { verb: "PUT", template: pattern.value };
    case "patch":
      return { verb: "PATCH", template: pattern.value };
    case "delete":
      return { verb: "DELETE", template: pattern.value };
    default:
      throw new Error(`${rpc}: unsupported google.api.http pattern ${String(pattern.case)}`);
  }
}

/** The text of a REST reply for a response message: the message's JSON, or its response_body field's. */
export function responseText(binding: RestBinding, message: Message): string {
  return binding.responseBody ? JSON.stringify(responseJson(binding, message)) : jsonText(binding.method.output, message);
}

/** The JSON a REST reply carries for a response message: the message, or its response_body field. */
export function responseJson(binding: RestBinding, message: Message): JsonValue {
  const json = toJson(binding.method.output, message as never) as Record<string, JsonValue>;
  if (!binding.responseBody) return json;
  const field = binding.method.output.fields.find((f) => f.name === binding.responseBody);
  return json[field?.jsonName ?? binding.responseBody] ?? null;
}
