// A setting's payload as the service uses it: the defaults with the stored
// fields laid over them (the effective value, contract §7.1), credentials
// still sealed. Other capabilities read settings through readSetting.
import { fromJson, toJson, type JsonObject, type JsonValue, type Message } from "@bufbuild/protobuf";
import type { SettingReader } from "./setting-cache.ts";
import { settingKind, type SettingKind } from "./setting-catalog.ts";
import type { SettingName, SettingPayloads } from "./setting-payloads.ts";

/** A setting's effective payload, read through `settings` (a cache, or the store itself). */
export async function readSetting<N extends SettingName>(settings: SettingReader, name: N): Promise<SettingPayloads[N]> {
  return effectiveSetting(name, await settings.get(name));
}

/** A setting's effective payload from its stored JSON (undefined: never written). */
export function effectiveSetting<N extends SettingName>(name: N, stored: Record<string, unknown> | undefined): SettingPayloads[N] {
  return effectiveValue(settingKind(name), stored) as SettingPayloads[N];
}

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
