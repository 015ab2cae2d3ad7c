// SCIM resources as plain JSON. Attribute names are case-insensitive (RFC
// 7643 §2.1), so bodies are read, and patched, in a canonical form whose keys
// are all lower-case; answers are written fresh in SCIM's own spelling.
import { invalidSyntax, invalidValue } from "./scim-error.ts";

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value with every object key lower-cased, at any depth. */
export function lowerKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(lowerKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key.toLowerCase(), lowerKeys(v)]));
}

/** A request body in canonical form; anything but a JSON object → invalidSyntax. */
export function canonicalBody(body: unknown): JsonObject {
  if (!isObject(body)) throw invalidSyntax("the request body must be a JSON object");
  return lowerKeys(body) as JsonObject;
}

/** A string attribute: absent or null → "", anything but a string → invalidValue. */
export function stringAttribute(value: Json | undefined, name: string): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw invalidValue(`${name} must be a string`);
  return value;
}

/**
 * A boolean attribute: true/false, or the strings "True"/"False" (any case)
 * that Microsoft Entra ID sends; absent or null → undefined.
 */
export function booleanAttribute(value: Json | undefined, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "boolean") return value;
  const text = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (text === "true" || text === "false") return text === "true";
  throw invalidValue(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

/** Two attribute values compared as SCIM compares them by default: strings ignoring case. */
export function sameValue(a: Json | undefined, b: Json | undefined): boolean {
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  if (typeof a === "boolean" || typeof b === "boolean") return String(a).toLowerCase() === String(b).toLowerCase();
  return a === b;
}
