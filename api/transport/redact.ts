// Messages as JSON for audit records, with every secret replaced by "***"
// (contract §3.4, §8.1). A field is secret when it is INPUT_ONLY or carries
// the svc.v1.secret option; the rule is read from the descriptors.
import { getOption, toJson, type DescField, type DescMessage, type JsonObject, type JsonValue, type Message } from "@bufbuild/protobuf";
import { FieldBehavior, field_behavior } from "../../shared/gen/google/api/field_behavior_pb.js";
import { secret } from "../../shared/gen/svc/v1/annotation_pb.js";

export const REDACTED = "***";

const secretFields = new WeakMap<DescField, boolean>();

export function isSecretField(field: DescField): boolean {
  let known = secretFields.get(field);
  if (known === undefined) {
    known = getOption(field, secret) || getOption(field, field_behavior).includes(FieldBehavior.INPUT_ONLY);
    secretFields.set(field, known);
  }
  return known;
}

/** The message as proto JSON text, secrets redacted. */
export function redactedJson(desc: DescMessage, message: Message): string {
  const json = toJson(desc, message as never) as JsonValue;
  return JSON.stringify(redact(desc, json));
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
