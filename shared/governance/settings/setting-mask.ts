// Update masks on setting payloads (contract §7.1): each path names a field
// of the payload; that field, and nothing else, takes the written value (a
// whole sub-message when the path names one). Paths come in the
// specification's form `workspaceProfile.passwordRestriction.minLength`, with
// an optional `value.` prefix, in lowerCamelCase or snake_case; `*` or the
// payload's own name replaces everything. Output-only fields of the
// client's message cannot be named (§0.5); the caller says which those are.
// Errors show paths in their JSON form.
import type { DescField } from "@bufbuild/protobuf";
import type { ReflectMessage } from "@bufbuild/protobuf/reflect";
import { invalidArgument, jsonName, quoted } from "../../platform/index.ts";

/** A mask path as field names below the payload; [] is the whole payload. */
export type MaskPath = readonly string[];

/** True when the path (as the client wrote its names) names an output-only field of the client's message. */
export type OutputOnlyPath = (path: MaskPath) => boolean;

/** Normalizes client paths for the payload held by `payload`, a field of SettingValue. */
export function parseMaskPaths(paths: readonly string[], payload: DescField): MaskPath[] {
  if (paths.length === 0) throw invalidArgument(`update_mask is required: name the fields to change, e.g. ${payload.jsonName}.title, or * for all`);
  return paths.map((raw) => {
    const segments = raw.trim().split(".");
    if (segments[0] === "value") segments.shift();
    if (segments.length === 1 && segments[0] === "*") return [];
    if (!namesField(payload, segments[0])) throw invalidArgument(`update_mask: ${quoted(jsonName(raw.trim()))} is not a field of ${payload.jsonName}`);
    return segments.slice(1);
  });
}

/** Copies the masked fields of `written` into `target`; an unknown or output-only path → invalid_argument naming it. */
export function applyMask(
  target: ReflectMessage,
  written: ReflectMessage,
  paths: readonly MaskPath[],
  payload: DescField,
  outputOnly: OutputOnlyPath = () => false,
): void {
  for (const path of paths) {
    if (path.length === 0) {
      for (const field of target.fields) copyField(target, written, field);
      continue;
    }
    let into = target;
    let from: ReflectMessage | undefined = written;
    const shown = [payload.jsonName];
    path.forEach((name, i) => {
      const field = into.desc.fields.find((f) => namesField(f, name));
      shown.push(field?.jsonName ?? jsonName(name));
      if (outputOnly(path.slice(0, i + 1))) throw invalidArgument(`update_mask: field ${quoted(shown.join("."))} is output only`);
      if (!field) throw invalidArgument(`update_mask: ${quoted(shown.join("."))} is not a field`);
      if (i === path.length - 1) return copyField(into, from, field);
      if (field.fieldKind !== "message") throw invalidArgument(`update_mask: ${quoted(shown.join("."))} has no fields below it`);
      if (!into.isSet(field)) into.set(field, into.get(field));
      into = into.get(field) as ReflectMessage;
      from = from?.isSet(field) ? (from.get(field) as ReflectMessage) : undefined;
    });
  }
}

function namesField(field: DescField, name: string | undefined): boolean {
  return field.name === name || field.jsonName === name;
}

function copyField(into: ReflectMessage, from: ReflectMessage | undefined, field: DescField): void {
  if (from?.isSet(field)) into.set(field, from.get(field));
  else into.clear(field);
}
