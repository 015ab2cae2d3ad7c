// Small checks shared by the setting validators. Each names the field by its
// JSON path (`workspaceProfile.passwordRestriction.minLength`), as the
// contract's errors do (§7.1).
import { formatDuration, invalidArgument, parseDuration, quoted, RESOURCE_ID_PATTERN } from "../../../platform/index.ts";

export function fieldError(path: string, problem: string): Error {
  return invalidArgument(`${path} ${problem}`);
}

interface DurationLimits {
  allowZero?: boolean;
  /** The longest accepted, in the input form (e.g. "7d"). */
  atMost?: string;
}

/** A duration in canonical form ("3600s"), or undefined when unset. */
export function canonicalDuration(value: string | undefined, path: string, limits: DurationLimits = {}): string | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value.trim(), path);
  if (ms === 0 && !limits.allowZero) throw fieldError(path, "must be longer than 0s");
  if (limits.atMost !== undefined && ms > parseDuration(limits.atMost, path)) throw fieldError(path, `must be at most ${limits.atMost}`);
  return formatDuration(ms);
}

export function requireText(value: string | undefined, path: string): string {
  if (!value?.trim()) throw fieldError(path, "is required");
  return value;
}

export function checkHttpUrl(value: string | undefined, path: string): void {
  if (!value) return;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fieldError(path, `must be an http(s) URL, got ${quoted(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw fieldError(path, `must be an http(s) URL, got ${quoted(value)}`);
}

export function checkRange(value: number | bigint | undefined, path: string, min: number | bigint, max: number | bigint): void {
  if (value === undefined) return;
  if (value < min) throw fieldError(path, `must be ≥ ${min}, got ${value}`);
  if (value > max) throw fieldError(path, `must be ≤ ${max}, got ${value}`);
}

export function requireEnum(value: number, path: string, names: string): void {
  if (value === 0) throw fieldError(path, `is required: one of ${names}`);
}

/** A client-chosen id (contract §0.3). */
export function checkId(value: string | undefined, path: string): string {
  const id = requireText(value, path);
  if (!RESOURCE_ID_PATTERN.test(id)) throw fieldError(path, `${quoted(id)} must be lowercase letters, digits and hyphens, starting with a letter (at most 63)`);
  return id;
}

/** Refuses the second of two entries with the same key. */
export function checkUnique<T>(items: readonly T[], keyOf: (item: T) => unknown, path: (i: number) => string, what: string): void {
  const seen = new Set<unknown>();
  items.forEach((item, i) => {
    const key = keyOf(item);
    if (seen.has(key)) throw fieldError(path(i), `repeats ${what} ${quoted(String(key))}`);
    seen.add(key);
  });
}
