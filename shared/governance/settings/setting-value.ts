// A setting's payload as the service uses it: the defaults with the stored
// fields laid over them (the effective value, contract §7.1), either with
// its credentials still sealed (for the server's own use) or as clients see
// it (credentials replaced by their `_set` flags).
import { clone, fromJson, toJson, type JsonObject, type JsonValue, type Message } from "@bufbuild/protobuf";
import { reflect } from "@bufbuild/protobuf/reflect";
import type { SettingKind } from "./setting-catalog.ts";
import { hideSecrets } from "./setting-secrets.ts";

/**
 * The effective payload, credentials sealed. A stored field that no longer
 * decodes (written by hand, or by an older version) reads as its default
 * rather than making the whole setting unreadable.
 */
export function effectiveValue(kind: SettingKind, stored: Record<string, unknown> | undefined): Message {
  const top = (stored ?? {}) as JsonObject;
  try {
    return fromJson(kind.schema, overlay(kind.defaults, top), { ignoreUnknownFields: true });
  } catch {
    const decodable = Object.entries(top).filter(([key, value]) => decodes(kind, { [key]: value }));
    return fromJson(kind.schema, overlay(kind.defaults, Object.fromEntries(decodable)), { ignoreUnknownFields: true });
  }
}

function decodes(kind: SettingKind, json: JsonObject): boolean {
  try {
    fromJson(kind.schema, json, { ignoreUnknownFields: true });
    return true;
  } catch {
    return false;
  }
}

/** The effective payload as clients see it. */
export function presentedValue(kind: SettingKind, effective: Message): Message {
  const shown = clone(kind.schema, effective);
  hideSecrets(reflect(kind.schema, shown));
  return shown;
}

/** The payload as stored: proto JSON of the explicitly set fields. */
export function storedJson(kind: SettingKind, value: Message): JsonObject {
  return toJson(kind.schema, value as never) as JsonObject;
}

/** `top` laid over `base`: objects merge field by field; lists and scalars of `top` win. */
function overlay(base: JsonObject, top: JsonObject): JsonObject {
  const merged: JsonObject = { ...base };
  for (const [key, value] of Object.entries(top)) {
    const under = merged[key];
    merged[key] = isObject(under) && isObject(value) ? overlay(under, value) : value;
  }
  return merged;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
