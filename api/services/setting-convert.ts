// Setting payloads between svc.v1 and the store (svc.store), which share
// their fields and JSON names: the API's messages add a `<field>_set` flag
// beside each credential and mark some fields output only. A write is
// stored without its output-only fields; reads and audit records show each
// credential only as its flag (contract §7.1, §3.4).
import { clone, fromJson, toJson, type DescField, type DescMessage, type JsonObject, type Message } from "@bufbuild/protobuf";
import { reflect, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { SettingValueSchema } from "../../shared/gen/svc/v1/setting_service_pb.js";
import { type PayloadView, type SettingKind, SETTINGS } from "../../shared/governance/index.ts";
import { isOutputOnlyField, isSecretField, secretFlagField } from "../transport/secret-fields.ts";

const API_FIELDS = new Map(SETTINGS.map((kind) => [kind.name, payloadFieldOf(kind)]));

function payloadFieldOf(kind: SettingKind): DescField {
  const field = SettingValueSchema.fields.find((f) => f.name === kind.field.name);
  if (field?.fieldKind !== "message") throw new Error(`svc.v1.SettingValue has no payload field for ${kind.name}`);
  return field;
}

/** The field of svc.v1.SettingValue that carries the setting's payload. */
export function apiPayloadField(kind: SettingKind): DescField {
  return API_FIELDS.get(kind.name)!;
}

/** A payload a client wrote, as the store takes it: without what clients cannot write. */
export function toStorePayload(kind: SettingKind, written: Message): Message {
  const desc = apiPayloadField(kind).message!;
  const copy = clone(desc, written);
  forEachMessage(reflect(desc, copy), (m) => {
    for (const field of m.fields) if (isOutputOnlyField(field)) m.clear(field);
  });
  return fromJson(kind.schema, toJson(desc, copy as never));
}

/** A stored payload as clients see it: no credential, and `<field>_set` telling whether one is stored. */
export function toApiPayload(kind: SettingKind, value: Message): Message {
  const desc = apiPayloadField(kind).message!;
  const shown = fromJson(desc, toJson(kind.schema, value as never));
  forEachMessage(reflect(desc, shown), (m) => {
    for (const field of m.fields) {
      if (!isSecretField(field)) continue;
      const flag = secretFlagField(m.desc, field);
      if (flag) m.set(flag, m.isSet(field) && m.get(field) !== "");
      m.clear(field);
    }
  });
  return shown;
}

/** What a write of the setting needs to know of the API's form of its payload. */
export function payloadView(kind: SettingKind): PayloadView {
  const desc = apiPayloadField(kind).message!;
  return {
    outputOnly: (path) => namesOutputOnly(desc, path),
    present: (value) => toJson(desc, toApiPayload(kind, value) as never) as JsonObject,
  };
}

/** True when the names (proto or JSON form) lead through `desc` to an output-only field. */
function namesOutputOnly(desc: DescMessage, path: readonly string[]): boolean {
  let message: DescMessage | undefined = desc;
  let field: DescField | undefined;
  for (const name of path) {
    field = message?.fields.find((f) => f.name === name || f.jsonName === name);
    if (!field) return false;
    message = field.fieldKind === "message" ? field.message : undefined;
  }
  return field !== undefined && isOutputOnlyField(field);
}

/** Calls `visit` for the message and every message inside it. */
function forEachMessage(message: ReflectMessage, visit: (message: ReflectMessage) => void): void {
  visit(message);
  for (const field of message.fields) {
    if (!message.isSet(field)) continue;
    if (field.fieldKind === "message") forEachMessage(message.get(field) as ReflectMessage, visit);
    else if (field.fieldKind === "list" && field.listKind === "message") for (const item of message.get(field) as Iterable<ReflectMessage>) forEachMessage(item, visit);
    else if (field.fieldKind === "map" && field.mapKind === "message") for (const item of (message.get(field) as ReadonlyMap<unknown, ReflectMessage>).values()) forEachMessage(item, visit);
  }
}
