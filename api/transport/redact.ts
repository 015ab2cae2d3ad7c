// Messages as JSON for audit records, with every secret replaced by "***"
// and bulk result data left out (contract §3.4, §8.1). A field is secret when
// it is INPUT_ONLY or carries the svc.v1.secret option, bulk when it carries
// svc.v1.not_audited; the rules are read from the descriptors.
import { clone, toJson, type DescField, type DescMessage, type JsonObject, type JsonValue, type Message } from "@bufbuild/protobuf";
import { FieldMaskSchema, type FieldMask } from "@bufbuild/protobuf/wkt";
import { isNotAuditedField, isSecretField } from "./secret-fields.ts";

const REDACTED = "***";

/** The message as proto JSON text, secrets redacted, bulk result data left out. */
export function redactedJson(desc: DescMessage, message: Message): string {
  return JSON.stringify(redact(desc, recordJson(desc, withoutBulk(desc, message))));
}

/**
 * The message without its not_audited fields, never converted to JSON: only
 * the messages on the way to one are copied (shallowly), the rest is shared.
 * A oneof member lives in its oneof's `{case, value}`, not under its own name.
 */
function withoutBulk(desc: DescMessage, message: Message): Message {
  if (!holdsBulk(desc)) return message;
  const copy: Record<string, unknown> = { ...message };
  for (const field of desc.fields) {
    if (field.oneof) {
      const selected = copy[field.oneof.localName] as { case: string | undefined; value?: unknown };
      if (selected.case !== field.localName) continue;
      const kept = keptValue(field, selected.value);
      copy[field.oneof.localName] = kept === undefined ? { case: undefined } : { case: field.localName, value: kept };
    } else {
      copy[field.localName] = keptValue(field, copy[field.localName]);
    }
  }
  return copy as unknown as Message;
}

/** What of a field's value an audit record keeps: nothing of a not_audited field, the rest without bulk (maps are kept whole, as holdsBulk says). */
function keptValue(field: DescField, value: unknown): unknown {
  if (isNotAuditedField(field)) return field.fieldKind === "list" ? [] : undefined;
  if (!field.message || field.fieldKind === "map" || value === undefined || !holdsBulk(field.message)) return value;
  return Array.isArray(value) ? value.map((item: Message) => withoutBulk(field.message!, item)) : withoutBulk(field.message, value as Message);
}

const bulkHolders = new WeakMap<DescMessage, boolean>();

/** Whether the message or one inside it has a not_audited field. */
function holdsBulk(desc: DescMessage): boolean {
  let known = bulkHolders.get(desc);
  if (known === undefined) {
    bulkHolders.set(desc, false); // a recursive message is settled by its other fields
    known = desc.fields.some((f) => isNotAuditedField(f) || (f.message !== undefined && f.fieldKind !== "map" && holdsBulk(f.message)));
    bulkHolders.set(desc, known);
  }
  return known;
}

/**
 * Proto JSON, except that an update mask whose paths have no JSON form
 * (`require_2fa`, or anything a binary client sent) is written as its raw
 * paths, and a message with no JSON form at all (a timestamp out of range)
 * as `{"unreadable": <why>}`: the record of a call must never fail on what
 * the call was given.
 */
function recordJson(desc: DescMessage, message: Message): JsonValue {
  try {
    return toJson(desc, message as never) as JsonValue;
  } catch (error) {
    try {
      return withRawMasks(desc, message, error);
    } catch {
      return { unreadable: `no JSON form: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}

/** Proto JSON with each update mask written as its raw paths; throws `error` when the message has no mask. */
function withRawMasks(desc: DescMessage, message: Message, error: unknown): JsonValue {
  const masks = desc.fields.filter((f) => f.fieldKind === "message" && f.message.typeName === FieldMaskSchema.typeName);
  if (masks.length === 0) throw error;
  const record = message as unknown as Record<string, FieldMask | undefined>;
  const withoutMasks = clone(desc, message);
  for (const field of masks) (withoutMasks as unknown as Record<string, unknown>)[field.localName] = undefined;
  const json = toJson(desc, withoutMasks as never) as JsonObject;
  for (const field of masks) if (record[field.localName]) json[field.jsonName] = record[field.localName]!.paths.join(",");
  return json;
}

function redact(desc: DescMessage, json: JsonValue): JsonValue {
  if (!isObject(json)) return json;
  for (const field of desc.fields) {
    const value = json[field.jsonName];
    if (value === undefined) continue;
    if (isSecretField(field)) json[field.jsonName] = REDACTED;
    else if (field.message) json[field.jsonName] = redactNested(field, field.message, value);
  }
  return json;
}

function redactNested(field: DescField, desc: DescMessage, value: JsonValue): JsonValue {
  if (field.fieldKind === "list" && Array.isArray(value)) return value.map((item) => redact(desc, item));
  if (field.fieldKind === "map" && isObject(value)) {
    for (const key of Object.keys(value)) value[key] = redact(desc, value[key]!);
    return value;
  }
  return redact(desc, value);
}

function isObject(value: JsonValue): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
