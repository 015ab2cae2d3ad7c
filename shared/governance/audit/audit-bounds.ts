// What an audit record stores, bounded so that every record can be written
// whatever the call was given (contract §8.1, §8.2; decision 0072):
// - NUL and lone UTF-16 surrogates, which PostgreSQL's text and jsonb cannot
//   hold, are stored as the visible escapes `\u0000` and `\udXXX`;
// - a text column keeps at most COLUMN_CHARS characters, so that it always
//   fits an index entry; one string (or key) inside request, response or
//   detail, and the status message, at most STRING_CHARS;
// - a longer value keeps its head, marked with the size and SHA-256 of the
//   whole: `<head>…[truncated from <n> bytes; sha256 <hex>]`;
// - a payload whose JSON is still over PAYLOAD_CHARS once its strings are
//   cut is kept as `{"truncated": "<its JSON, bounded as one string>"}`.
import { createHash } from "node:crypto";

/** Characters kept of a text column (actor, resource, …): with the marker, under the 2704-byte btree entry limit in any script. */
export const COLUMN_CHARS = 512;
/** Characters kept of one string or key inside a payload, and of the status message. */
export const STRING_CHARS = 2048;
/** Characters of a payload's JSON (request, response, detail) once its strings are cut. */
export const PAYLOAD_CHARS = 16 * 1024;

const UNSAFE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text with NUL and lone surrogates written as `\u0000` and `\udXXX`; otherwise unchanged. */
export function escapeUnsafe(text: string): string {
  if (!text.includes("\0") && text.isWellFormed()) return text;
  return text.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The first `limit` characters, one fewer where the limit would split a surrogate pair. */
export function headOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const last = text.charCodeAt(limit - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit);
}

/** The text as stored: escaped, and over `limit` characters cut and marked with the whole's size and hash. */
export function boundedText(text: string, limit: number): string {
  const escaped = escapeUnsafe(text);
  if (escaped.length <= limit) return escaped;
  const bytes = Buffer.from(escaped, "utf8");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return `${headOf(escaped, limit)}…[truncated from ${bytes.length} bytes; sha256 ${sha256}]`;
}

/** A JSON value as stored: every string and key bounded, the whole at most PAYLOAD_CHARS. */
export function boundedJson(value: unknown): string {
  const text = JSON.stringify(value, boundedMember) ?? "null";
  return text.length <= PAYLOAD_CHARS ? text : JSON.stringify({ truncated: boundedText(text, STRING_CHARS) });
}

/** JSON text as stored (boundedJson of what it holds); text that is not JSON is kept as one bounded string. */
export function boundedJsonText(text: string): string {
  if (text === "") return "";
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return boundedText(text, STRING_CHARS);
  }
  return boundedJson(value);
}

/** JSON.stringify's replacer: bounds strings and object keys; a bigint becomes its decimal text. */
function boundedMember(_key: string, value: unknown): unknown {
  if (typeof value === "string") return boundedText(value, STRING_CHARS);
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.every((key) => boundedText(key, STRING_CHARS) === key)) return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [boundedText(key, STRING_CHARS), object[key]]));
}

/**
 * The stored values an exact search term matches: the value itself, escaped
 * (e.g. a stored value copied from a record), and the stored form of the whole
 * value it may stand for (a long value's head, size and hash).
 */
export function searchedForms(value: string): string[] {
  const escaped = escapeUnsafe(value);
  const stored = boundedText(value, COLUMN_CHARS);
  return escaped === stored ? [escaped] : [escaped, stored];
}

/** The stored prefix a prefix term matches: escaped, and no longer than a column keeps. */
export function searchedPrefix(value: string): string {
  return headOf(escapeUnsafe(value), COLUMN_CHARS);
}
