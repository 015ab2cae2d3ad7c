// google.api.http path templates → find-my-way routes, and back to field values.
//   Template = "/" Segments [ ":" Verb ];  Segment = "*" | "**" | LITERAL | Variable;
//   Variable = "{" FieldPath [ "=" Segments ] "}"
// Each "*" becomes a route parameter restricted to one segment without ":",
// so that "/v1/projects/p1" and "/v1/projects/p1:getIamPolicy" stay apart.

export type PathPart = { literal: string } | { param: string };

export interface PathVariable {
  /** Dotted proto field path, e.g. "setting.name". */
  fieldPath: string;
  /** The variable's segments: literals and route parameter names ("*" for "**"). */
  parts: PathPart[];
}

export interface CompiledTemplate {
  /** The route for Fastify (find-my-way syntax). */
  url: string;
  variables: PathVariable[];
}

export class TemplateError extends Error {
  override name = "TemplateError";
}

const SEGMENT_PARAM = "(^[^/:]+)";

export function compileTemplate(template: string): CompiledTemplate {
  if (!template.startsWith("/")) throw new TemplateError(`template "${template}" must start with "/"`);
  const { path, verb } = splitVerb(template);
  const url: string[] = [];
  const variables: PathVariable[] = [];
  let paramCount = 0;
  const nextParam = () => `p${paramCount++}`;
  for (const segment of splitSegments(path.slice(1), template)) {
    const variable = /^\{([a-z_][a-z0-9_.]*)(?:=(.+))?\}$/i.exec(segment);
    if (!variable) {
      url.push(segmentRoute(segment, nextParam, template).route);
      continue;
    }
    const parts: PathPart[] = [];
    for (const inner of (variable[2] ?? "*").split("/")) {
      const compiled = segmentRoute(inner, nextParam, template);
      url.push(compiled.route);
      parts.push(compiled.param ? { param: compiled.param } : { literal: inner });
    }
    variables.push({ fieldPath: variable[1]!, parts });
  }
  let route = `/${url.join("/")}`;
  if (route.endsWith("/*") && verb) throw new TemplateError(`template "${template}": "**" cannot be followed by a verb`);
  if (verb) route += `::${verb}`;
  return { url: route, variables };
}

/** Rebuilds each variable's value from the matched route parameters. */
export function variableValues(template: CompiledTemplate, params: Record<string, string | undefined>): Map<string, string> {
  const values = new Map<string, string>();
  for (const variable of template.variables) {
    const text = variable.parts.map((part) => ("literal" in part ? part.literal : (params[part.param] ?? ""))).join("/");
    values.set(variable.fieldPath, text);
  }
  return values;
}

function segmentRoute(segment: string, nextParam: () => string, template: string): { route: string; param?: string } {
  if (segment === "*") {
    const param = nextParam();
    return { route: `:${param}${SEGMENT_PARAM}`, param };
  }
  if (segment === "**") return { route: "*", param: "*" };
  if (!/^[A-Za-z0-9._~-]+$/.test(segment)) throw new TemplateError(`template "${template}": unsupported segment "${segment}"`);
  return { route: segment };
}

function splitVerb(template: string): { path: string; verb: string | undefined } {
  // The verb is the ":" suffix after the last "/" that is outside any "{...}".
  let depth = 0;
  for (let i = template.length - 1; i >= 0; i--) {
    const c = template[i];
    if (c === "}") depth++;
    else if (c === "{") depth--;
    else if (c === "/" && depth === 0) break;
    else if (c === ":" && depth === 0) return { path: template.slice(0, i), verb: template.slice(i + 1) };
  }
  return { path: template, verb: undefined };
}

function splitSegments(path: string, template: string): string[] {
  const segments: string[] = [];
  let depth = 0;
  let current = "";
  for (const c of path) {
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (depth < 0 || depth > 1) throw new TemplateError(`template "${template}": unbalanced braces`);
    if (c === "/" && depth === 0) {
      segments.push(current);
      current = "";
    } else current += c;
  }
  if (depth !== 0) throw new TemplateError(`template "${template}": unbalanced braces`);
  segments.push(current);
  return segments;
}
