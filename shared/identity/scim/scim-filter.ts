// Attribute paths and the filters of RFC 7644 §3.4.2.2 that directories
// send: comparisons with `eq` joined by `and`, value paths such as
// `members[value eq "alice"]` and `emails[type eq "work"].value`, attribute
// names in any case, optionally prefixed by their schema URN. Other
// operators, `or`, `not` and parentheses are refused with the caller's
// error type (invalidFilter for a query, invalidPath for a PATCH path).
import { quoted } from "../../platform/index.ts";
import type { ScimError } from "./scim-error.ts";

export type CompareValue = string | number | boolean | null;

/** `attribute eq value`: the attribute lower-case, dotted when it names a sub-attribute ("emails.value"). */
export interface Comparison {
  attribute: string;
  value: CompareValue;
}

/** A PATCH target: an attribute, a filter on its elements, a sub-attribute. */
export interface AttributePath {
  attribute: string;
  where: Comparison[] | undefined;
  subAttribute: string | undefined;
}

type Refusal = (message: string) => ScimError;

const CORE_SCHEMA_PREFIXES = ["urn:ietf:params:scim:schemas:core:2.0:user:", "urn:ietf:params:scim:schemas:core:2.0:group:"];
const NAME = /^[a-z$][a-z0-9_$-]*$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const DELIMITERS = new Set([" ", "\t", "[", "]", "(", ")", '"']);

/** A query filter as the comparisons that must all hold. */
export function parseFilter(text: string, refuse: Refusal): Comparison[] {
  const cursor = new Cursor(text, refuse);
  const comparisons: Comparison[] = [];
  do comparisons.push(...term(cursor));
  while (cursor.takeWord("and"));
  if (!cursor.atEnd()) refuseRest(cursor);
  return comparisons;
}

/** A PATCH operation's path. */
export function parseAttributePath(text: string, refuse: Refusal): AttributePath {
  const cursor = new Cursor(text, refuse);
  const path = attributePath(cursor);
  if (!cursor.atEnd()) refuseRest(cursor);
  return path;
}

/** The dotted attribute a path names ("emails.value"). */
export function dottedName(path: Pick<AttributePath, "attribute" | "subAttribute">): string {
  return path.subAttribute ? `${path.attribute}.${path.subAttribute}` : path.attribute;
}

function term(cursor: Cursor): Comparison[] {
  if (cursor.peek() === "(") throw cursor.refuse("parentheses are not supported; join comparisons with and");
  if (cursor.peekWord() === "not") throw cursor.refuse("not is not supported; use comparisons with eq");
  const path = attributePath(cursor);
  const within = (path.where ?? []).map((c) => ({ attribute: `${path.attribute}.${c.attribute}`, value: c.value }));
  if (path.where && !path.subAttribute && (cursor.atEnd() || cursor.peekWord() === "and")) return within;
  const operator = cursor.word();
  if (operator.toLowerCase() !== "eq") throw cursor.refuse(`operator ${quoted(operator)} is not supported; supported: eq`);
  return [...within, { attribute: dottedName(path), value: cursor.value() }];
}

function attributePath(cursor: Cursor): AttributePath {
  const { attribute, subAttribute } = splitName(cursor, cursor.word());
  if (!cursor.takeAdjacent("[")) return { attribute, where: undefined, subAttribute };
  if (subAttribute) throw cursor.refuse(`a filter applies to an attribute, not to ${quoted(`${attribute}.${subAttribute}`)}`);
  const where: Comparison[] = [];
  do {
    const inner = splitName(cursor, cursor.word());
    if (cursor.word().toLowerCase() !== "eq") throw cursor.refuse(`only eq is supported inside ${attribute}[…]`);
    where.push({ attribute: dottedName(inner), value: cursor.value() });
  } while (cursor.takeWord("and"));
  if (!cursor.takeAdjacent("]")) throw cursor.refuse(`expected "]" after the filter of ${attribute}`);
  if (!cursor.takeAdjacent(".")) return { attribute, where, subAttribute: undefined };
  const sub = splitName(cursor, cursor.word());
  if (sub.subAttribute) throw cursor.refuse(`${quoted(attribute)} has no sub-attribute ${quoted(`${sub.attribute}.${sub.subAttribute}`)}`);
  return { attribute, where, subAttribute: sub.attribute };
}

/** "name.givenName" → name + givenname; a core schema URN prefix is dropped, an extension's kept. */
function splitName(cursor: Cursor, token: string): { attribute: string; subAttribute: string | undefined } {
  if (!token) throw cursor.refuse(`expected an attribute name at position ${cursor.pos + 1}`);
  let lower = token.toLowerCase();
  const core = CORE_SCHEMA_PREFIXES.find((prefix) => lower.startsWith(prefix));
  if (core) lower = lower.slice(core.length);
  const colon = lower.startsWith("urn:") ? lower.lastIndexOf(":") : -1;
  const [name = "", sub, extra] = lower.slice(colon + 1).split(".");
  if (!NAME.test(name) || (sub !== undefined && !NAME.test(sub)) || extra !== undefined) {
    throw cursor.refuse(`${quoted(token)} is not an attribute path`);
  }
  return { attribute: lower.slice(0, colon + 1) + name, subAttribute: sub };
}

function refuseRest(cursor: Cursor): never {
  const rest = cursor.text.slice(cursor.pos).trim();
  const word = rest.split(/\s/)[0]!.toLowerCase();
  throw cursor.refuse(word === "or" ? "or is not supported; join comparisons with and" : `unexpected ${quoted(rest)}`);
}

class Cursor {
  pos = 0;
  readonly text: string;
  readonly refuse: Refusal;

  constructor(text: string, refuse: Refusal) {
    this.text = text;
    this.refuse = (message) => refuse(`${JSON.stringify(text)}: ${message}`);
  }

  atEnd(): boolean {
    this.#skipSpaces();
    return this.pos >= this.text.length;
  }

  peek(): string {
    this.#skipSpaces();
    return this.text[this.pos] ?? "";
  }

  /** The next word, lower-case, without taking it. */
  peekWord(): string {
    const start = this.pos;
    const word = this.word().toLowerCase();
    this.pos = start;
    return word;
  }

  /** Takes `expected` (any case) when it is the next word. */
  takeWord(expected: string): boolean {
    if (this.peekWord() !== expected) return false;
    this.word();
    return true;
  }

  /** Takes `char` when it follows without spaces. */
  takeAdjacent(char: string): boolean {
    if (this.text[this.pos] !== char) return false;
    this.pos++;
    return true;
  }

  word(): string {
    this.#skipSpaces();
    const start = this.pos;
    while (this.pos < this.text.length && !DELIMITERS.has(this.text[this.pos]!)) this.pos++;
    return this.text.slice(start, this.pos);
  }

  value(): CompareValue {
    if (this.peek() === '"') return this.#quoted();
    const word = this.word();
    const lower = word.toLowerCase();
    if (lower === "true" || lower === "false") return lower === "true";
    if (lower === "null") return null;
    if (NUMBER.test(word)) return Number(word);
    throw this.refuse(word ? `${quoted(word)} is not a value; quote strings` : "a comparison needs a value");
  }

  #quoted(): string {
    const start = this.pos;
    for (this.pos++; this.pos < this.text.length; this.pos++) {
      const char = this.text[this.pos];
      if (char === "\\") this.pos++;
      else if (char === '"') break;
    }
    if (this.pos >= this.text.length) throw this.refuse("a quoted value is not closed");
    this.pos++;
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      throw this.refuse(`${this.text.slice(start, this.pos)} is not a valid string`);
    }
  }

  #skipSpaces(): void {
    while (this.text[this.pos] === " " || this.text[this.pos] === "\t") this.pos++;
  }
}
