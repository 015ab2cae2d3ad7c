// What each part of a page token's key may be: a row time as the lists
// write it (RFC 3339 in UTC), an id compared as text, or a whole number. A
// token edited into another shape is refused before a query reads it, where
// it would fail as a type error of the store.

export type PageKeyPart = "time" | "text" | "integer";
export type PageKeyShape = readonly PageKeyPart[];

/** The longest text a key part may be (ids are far shorter). */
export const MAX_KEY_TEXT = 1024;

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const DIGITS = /^\d{1,15}$/;

const FITS: Record<PageKeyPart, (part: unknown) => boolean> = {
  time: (part) => typeof part === "string" && isTime(part),
  text: (part) => isKeyText(part) || Number.isSafeInteger(part),
  integer: (part) => Number.isSafeInteger(part) || (typeof part === "string" && DIGITS.test(part)),
};

export function fitsPageKey(key: readonly unknown[], shape: PageKeyShape): boolean {
  return key.length === shape.length && key.every((part, i) => FITS[shape[i]!](part));
}

/** A string the store can hold: bounded, without NUL. */
export function isKeyText(part: unknown): part is string {
  return typeof part === "string" && part.length <= MAX_KEY_TEXT && !part.includes("\0");
}

/** A real instant: the calendar rejects what the pattern lets through (February 31st). */
function isTime(text: string): boolean {
  if (!TIME.test(text)) return false;
  const ms = Date.parse(text);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 19) === text.slice(0, 19);
}
