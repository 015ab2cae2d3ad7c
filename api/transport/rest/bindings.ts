// The REST bindings of every served method, from its google.api.http option.
import { getOption, hasOption, type DescMethodUnary, type DescService } from "@bufbuild/protobuf";
import { http } from "../../../shared/gen/google/api/annotations_pb.js";
import type { HttpRule } from "../../../shared/gen/google/api/http_pb.js";
import { compileTemplate, type CompiledTemplate } from "./path-template.ts";
import { isUnary } from "../services.ts";

export type HttpVerb = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RestBinding {
  service: DescService;
  method: DescMethodUnary;
  verb: HttpVerb;
  /** The template as written in the proto. */
  template: string;
  compiled: CompiledTemplate;
  /** "*" for the whole body, a field name, or "" for none. */
  bodyField: string;
  responseBody: string;
}

export function restBindings(services: readonly DescService[]): RestBinding[] {
  const bindings: RestBinding[] = [];
  for (const service of services) {
    for (const method of service.methods) {
      if (!isUnary(method) || !hasOption(method, http)) continue;
      const rule = getOption(method, http);
      for (const one of [rule, ...rule.additionalBindings]) bindings.push(binding(service, method, one));
    }
  }
  return bindings;
}

function binding(service: DescService, method: DescMethodUnary, rule: HttpRule): RestBinding {
  const { verb, template } = verbAndTemplate(rule, `${service.typeName}.${method.name}`);
  return {
    service,
    method,
    verb,
    template,
    compiled: compileTemplate(template),
    bodyField: rule.body,
    responseBody: rule.responseBody,
  };
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
