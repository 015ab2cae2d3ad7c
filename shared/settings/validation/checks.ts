// Small checks shared by the setting validators. Each names the field by its
// JSON path (`workspaceProfile.passwordRestriction.minLength`), as the
// contract's errors do (§7.1).
import { formatDuration, parseDuration } from "../../platform/duration.ts";
import { invalidArgument } from "../../platform/errors.ts";

export function fieldError(path: string, problem: string): Error {
  return invalidArgument(`${path} ${problem}`);
}

/** A duration in canonical form ("3600s"), or undefined when unset. */
export function canonicalDuration(value: string | undefined, path: string, options: { allowZero?: boolean } = {}): string | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value.trim(), path);
  if (ms === 0 && !options.allowZero) throw fieldError(path, "must be longer than 0s");
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
    throw fieldError(path, `must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw fieldError(path, `must be an http(s) URL, got "${value}"`);
}

export function checkRange(value: number | bigint | undefined, path: string, min: number | bigint, max: number | bigint): void {
  if (value === undefined) return;
  if (value < min || value > max) throw fieldError(path, `must be between ${min} and ${max}, got ${value}`);
}

export function requireEnum(value: number, path: string, names: string): void {
  if (value === 0) throw fieldError(path, `is required: one of ${names}`);
}

const ID = /^[a-z][a-z0-9-]{0,63}$/;

export function checkId(value: string | undefined, path: string): string {
  const id = requireText(value, path);
  if (!ID.test(id)) throw fieldError(path, `"${id}" must be lowercase letters, digits and hyphens, starting with a letter (at most 64)`);
  return id;
}

/** Refuses the second of two entries with the same key. */
export function checkUnique<T>(items: readonly T[], keyOf: (item: T) => unknown, path: (i: number) => string, what: string): void {
  const seen = new Set<unknown>();
  items.forEach((item, i) => {
    const key = keyOf(item);
    if (seen.has(key)) throw fieldError(path(i), `repeats ${what} "${String(key)}"`);
    seen.add(key);
  });
}
