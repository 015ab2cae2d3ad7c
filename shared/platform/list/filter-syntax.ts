// The syntax of `filter` (contract §2.3): `term (AND term)*`, each term
// `field OP value`. This file only splits the text into terms; filter.ts checks
// them against a list's fields. Positions in messages count characters from 0.
import { type DomainError, invalidArgument, quoted } from "../errors.ts";

export type FilterOp = ":" | "=" | "!=" | ">" | ">=" | "<" | "<=";

export interface RawTerm {
  /** The field name as written. */
  field: string;
  op: FilterOp;
  /** The value as written, without quotes and with escapes resolved. */
  value: string;
}

// Longest first, so that ">=" is never read as ">" followed by "=".
const OPS: readonly FilterOp[] = [">=", "<=", "!=", ":", "=", ">", "<"];
const FIELD = /[A-Za-z_][A-Za-z0-9_.]*/y;
const SPACE = /\s+/y;
const BARE_WORD = /[^\s"]+/y;
const WORD = /\S+/y;
const AND_WORD = /and(?:\s|$)/iy;

class Scanner {
  readonly text: string;
  pos = 0;

  constructor(text: string) {
    this.text = text;
  }

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string | undefined {
    return this.text[this.pos];
  }

  /** Consumes what `pattern` (a sticky regexp) matches here, if anything. */
  match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.pos;
    const found = pattern.exec(this.text)?.[0];
    if (found) this.pos += found.length;
    return found || undefined;
  }

  /** True when the text here matches `pattern`, without consuming it. */
  sees(pattern: RegExp): boolean {
    pattern.lastIndex = this.pos;
    return pattern.test(this.text);
  }

  /** Skips whitespace; true when there was some. */
  skipSpace(): boolean {
    return this.match(SPACE) !== undefined;
  }
}

/** Splits a filter into its terms; an empty or blank filter has none. */
export function readTerms(filter: string): RawTerm[] {
  const scan = new Scanner(filter);
  const terms: RawTerm[] = [];
  scan.skipSpace();
  if (scan.atEnd()) return terms;
  for (;;) {
    terms.push(readTerm(scan));
    const spaced = scan.skipSpace();
    if (scan.atEnd()) return terms;
    readAnd(scan, spaced);
  }
}

function readAnd(scan: Scanner, spaced: boolean): void {
  const at = scan.pos;
  if (!spaced) throw syntaxError(`expected a space after the quoted value at position ${at}`);
  const word = scan.match(WORD);
  if (word?.toUpperCase() !== "AND") {
    throw syntaxError(`expected AND between terms at position ${at}, found ${word === undefined ? "the end" : quoted(word)}`);
  }
  scan.skipSpace();
  if (scan.atEnd()) throw syntaxError(`expected a term after AND at position ${at}`);
}

function readTerm(scan: Scanner): RawTerm {
  const field = scan.match(FIELD);
  if (field === undefined) throw syntaxError(`expected a field name at position ${scan.pos}`);
  scan.skipSpace();
  const op = readOp(scan, field);
  return { field, op, value: readValue(scan, field, op) };
}

function readOp(scan: Scanner, field: string): FilterOp {
  const op = OPS.find((candidate) => scan.text.startsWith(candidate, scan.pos));
  if (op === undefined) {
    throw syntaxError(`expected an operator after ${quoted(field)} at position ${scan.pos}; use :, =, !=, >, >=, < or <=`);
  }
  scan.pos += op.length;
  return op;
}

function readValue(scan: Scanner, field: string, op: FilterOp): string {
  // After a space, a bare AND is the next conjunction, so the value is missing.
  const spaced = scan.skipSpace();
  if (scan.atEnd() || (spaced && scan.sees(AND_WORD))) {
    throw syntaxError(`expected a value after ${quoted(`${field}${op}`)}`);
  }
  if (scan.peek() === '"') return readQuoted(scan);
  const word = scan.match(BARE_WORD) ?? "";
  if (scan.peek() === '"') {
    throw syntaxError(`unexpected quote at position ${scan.pos}; quote the whole value, e.g. ${field}${op}"a b"`);
  }
  return word;
}

function readQuoted(scan: Scanner): string {
  const { text } = scan;
  const start = scan.pos;
  let value = "";
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      scan.pos = i + 1;
      return value;
    }
    if (char === "\\") {
      const next = text[++i];
      if (next === undefined) break;
      if (next !== '"' && next !== "\\") {
        throw syntaxError(`invalid escape "\\${next}" at position ${i - 1}; only \\" and \\\\ are allowed`);
      }
      value += next;
    } else {
      value += char;
    }
  }
  throw syntaxError(`unterminated quoted string at position ${start}`);
}

function syntaxError(message: string): DomainError {
  return invalidArgument(`filter: ${message}`);
}
