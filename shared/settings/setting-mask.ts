// Update masks on setting payloads (contract §7.1): each path names a field
// of the payload; that field, and nothing else, takes the written value (a
// whole sub-message when the path names one). Paths come in the
// specification's form `workspaceProfile.passwordRestriction.minLength`, with
// an optional `value.` prefix, in lowerCamelCase or snake_case; `*` or the
// payload's own name replaces everything.
import type { DescField } from "@bufbuild/protobuf";
import type { ReflectMessage } from "@bufbuild/protobuf/reflect";
import { invalidArgument } from "../platform/errors.ts";

/** A mask path as field names below the payload; [] is the whole payload. */
export type MaskPath = readonly string[];

/** Normalizes client paths for the payload named `valueKey` (its proto field name, e.g. workspace_profile). */
export function parseMaskPaths(paths: readonly string[], valueKey: string): MaskPath[] {
  if (paths.length === 0) throw invalidArgument(`update_mask is required: name the fields to change, e.g. ${camel(valueKey)}.title, or * for all`);
  return paths.map((raw) => {
    const segments = raw.trim().split(".");
    if (segments[0] === "value") segments.shift();
    if (segments.length === 1 && segments[0] === "*") return [];
    if (segments[0] !== valueKey && segments[0] !== camel(valueKey)) throw invalidArgument(`update_mask: "${raw}" is not a field of ${camel(valueKey)}`);
    return segments.slice(1);
  });
}

/** Copies the masked fields of `written` into `target`; an unknown path → invalid_argument naming it. */
export function applyMask(target: ReflectMessage, written: ReflectMessage, paths: readonly MaskPath[], valueKey: string): void {
  for (const path of paths) {
    if (path.length === 0) {
      for (const field of target.fields) copyField(target, written, field);
      continue;
    }
    let into = target;
    let from: ReflectMessage | undefined = written;
    path.forEach((name, i) => {
      const field = into.desc.fields.find((f) => f.name === name || f.jsonName === name);
      if (!field) throw invalidArgument(`update_mask: "${[valueKey, ...path].map(camel).join(".")}" is not a field`);
      if (i === path.length - 1) return copyField(into, from, field);
      if (field.fieldKind !== "message") {
        throw invalidArgument(`update_mask: "${[valueKey, ...path.slice(0, i + 1)].map(camel).join(".")}" has no fields below it`);
      }
      if (!into.isSet(field)) into.set(field, into.get(field));
      into = into.get(field) as ReflectMessage;
      from = from?.isSet(field) ? (from.get(field) as ReflectMessage) : undefined;
    });
  }
}

function copyField(into: ReflectMessage, from: ReflectMessage | undefined, field: DescField): void {
  if (from?.isSet(field)) into.set(field, from.get(field));
  else into.clear(field);
}

export function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
