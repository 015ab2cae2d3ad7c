// The rules every request message keeps, whatever form it came in (decision
// 0074): no string holds a NUL character (PostgreSQL cannot store one), a
// string or bytes field holds at most its `max_length` UTF-8 bytes (1 KiB
// unless the proto says more), and a repeated or map field at most its
// `max_items` elements (1000 unless the proto says more), and timestamps,
// durations and numbers only the binary form can carry are refused. The
// limits are read once per field from the proto's options.
import { getOption, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { isReflectMessage, reflect, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import type { Duration, Timestamp, Value } from "@bufbuild/protobuf/wkt";
import { max_items, max_length } from "../../shared/gen/svc/v1/annotation_pb.js";
import { quoted } from "../../shared/platform/index.ts";

export const DEFAULT_MAX_LENGTH = 1024;
export const DEFAULT_MAX_ITEMS = 1000;

interface Limits {
  maxLength: number;
  maxItems: number;
}

const limitsCache = new WeakMap<DescField, Limits>();

/** The first rule the message breaks, as "<field path>: <problem>"; undefined when it keeps them all. */
export function inputProblem(desc: DescMessage, message: Message): string | undefined {
  return messageProblem(reflect(desc, message), "");
}

export function limitsOf(field: DescField): Limits {
  let limits = limitsCache.get(field);
  if (!limits) {
    limits = {
      maxLength: getOption(field, max_length) || DEFAULT_MAX_LENGTH,
      maxItems: getOption(field, max_items) || DEFAULT_MAX_ITEMS,
    };
    limitsCache.set(field, limits);
  }
  return limits;
}

function messageProblem(message: ReflectMessage, prefix: string): string | undefined {
  const jsonless = WELL_KNOWN[message.desc.typeName]?.(message.message);
  if (jsonless) return `${prefix.slice(0, -1)}: ${jsonless}`;
  for (const field of message.fields) {
    if (!message.isSet(field)) continue;
    const problem = fieldProblem(message, field, `${prefix}${field.name}`);
    if (problem) return problem;
  }
  return undefined;
}

function fieldProblem(message: ReflectMessage, field: DescField, path: string): string | undefined {
  const limits = limitsOf(field);
  switch (field.fieldKind) {
    case "scalar":
      return valueProblem(message.get(field), path, limits.maxLength);
    case "enum":
      return undefined;
    case "message":
      return messageProblem(message.get(field), `${path}.`);
    case "list": {
      const list = message.get(field);
      if (list.size > limits.maxItems) return tooMany(path, list.size, limits.maxItems);
      let index = 0;
      for (const item of list) {
        const problem = valueProblem(item, `${path}[${index++}]`, limits.maxLength);
        if (problem) return problem;
      }
      return undefined;
    }
    case "map": {
      const map = message.get(field);
      if (map.size > limits.maxItems) return tooMany(path, map.size, limits.maxItems);
      for (const [key, value] of map) {
        const at = `${path}[${typeof key === "string" ? quoted(key) : String(key)}]`;
        const problem = valueProblem(key, at, DEFAULT_MAX_LENGTH) ?? valueProblem(value, at, limits.maxLength);
        if (problem) return problem;
      }
      return undefined;
    }
  }
}

/**
 * Values of well-known types that only the binary form can carry, which the
 * JSON form refuses as it parses: a timestamp outside years 1 to 9999, a
 * duration over 10,000 years or with nanos of the other sign, a NaN or
 * infinite number in a Struct.
 */
const WELL_KNOWN: Record<string, (message: Message) => string | undefined> = {
  "google.protobuf.Timestamp": (message) => {
    const { seconds, nanos } = message as Timestamp;
    const inRange = seconds >= MIN_TIMESTAMP && seconds <= MAX_TIMESTAMP && nanos >= 0 && nanos <= MAX_NANOS;
    return inRange ? undefined : "not a timestamp from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z";
  },
  "google.protobuf.Duration": (message) => {
    const { seconds, nanos } = message as Duration;
    const inRange = seconds >= -MAX_DURATION && seconds <= MAX_DURATION && Math.abs(nanos) <= MAX_NANOS;
    const sameSign = seconds === 0n || nanos === 0 || seconds > 0n === nanos > 0;
    return inRange && sameSign ? undefined : "not a duration of at most 10,000 years";
  },
  "google.protobuf.Value": (message) => {
    const { kind } = message as Value;
    return kind.case === "numberValue" && !Number.isFinite(kind.value) ? "a number must be finite" : undefined;
  },
};
const MIN_TIMESTAMP = -62_135_596_800n;
const MAX_TIMESTAMP = 253_402_300_799n;
const MAX_DURATION = 315_576_000_000n;
const MAX_NANOS = 999_999_999;

function valueProblem(value: unknown, path: string, maxLength: number): string | undefined {
  if (typeof value === "string") return textProblem(value, path, maxLength);
  if (value instanceof Uint8Array) return value.byteLength > maxLength ? tooLong(path, value.byteLength, maxLength) : undefined;
  if (isReflectMessage(value)) return messageProblem(value, `${path}.`);
  return undefined;
}

function textProblem(text: string, path: string, maxLength: number): string | undefined {
  // A UTF-16 unit takes one to three UTF-8 bytes (a surrogate pair four): count bytes only when it matters.
  if (text.length > maxLength) return tooLong(path, Buffer.byteLength(text), maxLength);
  if (text.length * 3 > maxLength) {
    const bytes = Buffer.byteLength(text);
    if (bytes > maxLength) return tooLong(path, bytes, maxLength);
  }
  if (text.includes("\0")) return `${path}: ${quoted(text)} contains a NUL character (U+0000), which is not accepted`;
  return undefined;
}

function tooLong(path: string, bytes: number, maxLength: number): string {
  return `${path}: too long: ${bytes} bytes, at most ${maxLength} accepted`;
}

function tooMany(path: string, count: number, maxItems: number): string {
  return `${path}: too many elements: ${count}, at most ${maxItems} accepted`;
}
