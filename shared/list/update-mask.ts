// `update_mask` of Update methods (contract §0.4, §0.5): required, each path
// an editable field of the resource (snake_case or lowerCamelCase, optionally
// prefixed with the resource's field name); naming an output-only field or an
// unknown one → invalid_argument.
import { invalidArgument } from "../platform/errors.ts";
import { snakeCase } from "./field-name.ts";

export interface MaskSpec<F extends string> {
  /** The request's field holding the resource, e.g. "role" (paths may start with "role."). */
  resource: string;
  /** Editable fields in snake_case. */
  editable: readonly F[];
  /** Output-only fields in snake_case. */
  outputOnly: readonly string[];
}

/** The editable fields the mask names. */
export function maskFields<F extends string>(paths: readonly string[], spec: MaskSpec<F>): Set<F> {
  if (paths.length === 0) throw invalidArgument(`update_mask is required; editable fields: ${spec.editable.join(", ")}`);
  const fields = new Set<F>();
  for (const path of paths) {
    const name = snakeCase(path.startsWith(`${spec.resource}.`) ? path.slice(spec.resource.length + 1) : path);
    if (spec.outputOnly.includes(name)) throw invalidArgument(`update_mask: field ${path} is output only`);
    const field = spec.editable.find((f) => f === name);
    if (!field) throw invalidArgument(`update_mask: unknown field "${path}"; editable fields: ${spec.editable.join(", ")}`);
    fields.add(field);
  }
  return fields;
}
