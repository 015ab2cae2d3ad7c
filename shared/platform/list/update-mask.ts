// `update_mask` of Update methods (contract §0.4, §0.5): required, each path
// an editable field of the resource (snake_case or lowerCamelCase, optionally
// prefixed with the resource's field name); naming an output-only field or an
// unknown one → invalid_argument. Messages name fields in their JSON form
// (lowerCamelCase), as the REST and Connect JSON clients write them (§1.3).
import { invalidArgument, quoted } from "../errors.ts";
import { jsonName, snakeCase } from "./field-name.ts";

export interface MaskSpec<F extends string> {
  /** The request's field holding the resource, e.g. "role" (paths may start with "role."). */
  resource: string;
  /** Editable fields in snake_case. */
  editable: readonly F[];
  /** Output-only fields in snake_case. */
  outputOnly: readonly string[];
  /** What else may stand in for a mask, when an empty one is allowed (e.g. "a regenerate flag"). */
  emptyAllowedWith?: string;
}

/** The editable fields the mask names; an empty mask is refused unless `emptyAllowed`. */
export function maskFields<F extends string>(paths: readonly string[], spec: MaskSpec<F>, emptyAllowed = false): Set<F> {
  if (paths.length === 0 && !emptyAllowed) {
    const instead = spec.emptyAllowedWith ? ` (or ${spec.emptyAllowedWith})` : "";
    throw invalidArgument(`update_mask is required${instead}; editable fields: ${editableFields(spec)}`);
  }
  const fields = new Set<F>();
  for (const path of paths) {
    const name = snakeCase(path.startsWith(`${spec.resource}.`) ? path.slice(spec.resource.length + 1) : path);
    if (spec.outputOnly.includes(name)) throw invalidArgument(`update_mask: field ${jsonName(path)} is output only`);
    const field = spec.editable.find((f) => f === name);
    if (!field) throw invalidArgument(`update_mask: unknown field ${quoted(jsonName(path))}; editable fields: ${editableFields(spec)}`);
    fields.add(field);
  }
  return fields;
}

function editableFields(spec: MaskSpec<string>): string {
  return spec.editable.map(jsonName).join(", ");
}
