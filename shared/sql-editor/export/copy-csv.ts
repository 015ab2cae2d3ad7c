// A row of `COPY … TO STDOUT` in PostgreSQL's text format (fields split by
// tabs, \N for NULL, backslash escapes, a newline at the end) written as the
// CSV line 0080 prints for it, bytes to bytes (docs/decisions/0131): the
// cells are the same printed text the protocol's DataRows carry, so no
// string per cell is made for integers, timestamps, booleans, plain floats
// or text that needs neither quotes nor unescaping. Floats and bytea are
// printed as printed-cells.ts prints them; the file is the one csv.ts
// writes from the same rows.
import type { CellKind } from "../cells.ts";
import { csvField } from "./csv.ts";
import { isPlainShortestFloat, printedText } from "./printed-cells.ts";

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const LETTER_N = 0x4e;
const LETTER_T = 0x74;
const TRUE = Buffer.from("true");
const FALSE = Buffer.from("false");
const EMPTY_TEXT = Buffer.from('""');
/** Room for a field beyond twice its printed bytes: JavaScript's longest float ("-1.2345678901234567e-308") and a comma. */
const LONGEST_FIELD = 32;

/** What COPY's text format writes for \b \f \n \r \t \v; any other escaped byte stands for itself. */
const UNESCAPED = new Uint8Array(256).map((_, byte) => byte);
for (const [letter, byte] of Object.entries({ b: 8, f: 12, n: 10, r: 13, t: 9, v: 11 })) UNESCAPED[letter.charCodeAt(0)] = byte;

/** Bytes appended to a growing buffer. */
export class ByteSink {
  bytes: Buffer;
  size = 0;

  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafe(capacity);
  }

  /** Room for `count` more bytes. */
  reserve(count: number): void {
    if (this.size + count <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.size + count));
    this.bytes.copy(bigger, 0, 0, this.size);
    this.bytes = bigger;
  }

  /** Short pieces: byte by byte is cheaper than a native copy call. */
  copy(from: Uint8Array, start: number, end: number): void {
    this.reserve(end - start);
    for (let i = start; i < end; i++) this.bytes[this.size++] = from[i]!;
  }

  text(text: string): void {
    this.reserve(text.length * 3); // a UTF-16 unit is at most 3 UTF-8 bytes
    this.size += this.bytes.write(text, this.size);
  }
}

/** Writes one field's bytes [start, end) of a COPY line, never NULL. */
type FieldWriter = (out: ByteSink, line: Buffer, start: number, end: number) => void;

const floatText = printedText("double");
const bytesText = printedText("bytes");

/**
 * How a column's fields are read off the line: copied as they are scanned
 * (integers and timestamps print no tab, backslash, quote or comma); copied
 * unless the text turns out to hold an escape, a quote or a comma, or to be
 * empty; or scanned, then written by their writer (booleans, floats, bytea).
 */
const COPIED = 0;
const COPIED_WHEN_PLAIN = 1;
const WRITTEN = 2;

const COLUMNS: Record<CellKind, { pass: number; writer?: FieldWriter }> = {
  int64: { pass: COPIED },
  timestamp: { pass: COPIED },
  text: { pass: COPIED_WHEN_PLAIN, writer: textField },
  bool: { pass: WRITTEN, writer: (out, line, start) => out.copy(line[start] === LETTER_T ? TRUE : FALSE, 0, line[start] === LETTER_T ? 4 : 5) },
  double: {
    pass: WRITTEN,
    writer: (out, line, start, end) => {
      if (isPlainShortestFloat(line, start, end)) out.copy(line, start, end);
      else out.text(floatText(line.toString("latin1", start, end)));
    },
  },
  // \\x…: the hex form's backslash escaped; base64 never needs quotes, but an empty value is ""
  bytes: { pass: WRITTEN, writer: (out, line, start, end) => out.text(csvField(bytesText(unescaped(line, start, end).toString("latin1")))) },
};

/** Text that is empty or holds an escape, a quote or a comma: unescaped, and quoted as csv.ts quotes. */
function textField(out: ByteSink, line: Buffer, start: number, end: number): void {
  if (start === end) return out.copy(EMPTY_TEXT, 0, 2);
  let quoted = false;
  for (let i = start; i < end; i++) {
    const byte = line[i] === BACKSLASH ? UNESCAPED[line[++i]!]! : line[i]!;
    if (byte === LF || byte === CR || byte === QUOTE || byte === COMMA) quoted = true;
  }
  out.reserve(2 * (end - start) + 2);
  const bytes = out.bytes;
  let size = out.size;
  if (quoted) bytes[size++] = QUOTE;
  for (let i = start; i < end; i++) {
    const byte = line[i] === BACKSLASH ? UNESCAPED[line[++i]!]! : line[i]!;
    bytes[size++] = byte;
    if (byte === QUOTE) bytes[size++] = QUOTE;
  }
  if (quoted) bytes[size++] = QUOTE;
  out.size = size;
}

function unescaped(line: Buffer, start: number, end: number): Buffer {
  const bytes = Buffer.allocUnsafe(end - start);
  let size = 0;
  for (let i = start; i < end; i++) bytes[size++] = line[i] === BACKSLASH ? UNESCAPED[line[++i]!]! : line[i]!;
  return bytes.subarray(0, size);
}

/**
 * Writes COPY text lines of columns of these kinds as CSV lines (CRLF). The
 * bytes of a line are read once (a JavaScript loop over bytes is the cost
 * here): integers, timestamps and plain text are copied while their field is
 * scanned for its end; the rest (booleans, floats, bytea, text to unescape
 * or quote) is left to the column's writer, and NULL writes nothing.
 */
export function copyLineWriter(kinds: readonly CellKind[]): (out: ByteSink, line: Buffer) => void {
  const passes = kinds.map((kind) => COLUMNS[kind].pass);
  const writers = kinds.map((kind) => COLUMNS[kind].writer);
  const count = kinds.length;
  return (out, line) => {
    const last = line.length - 1; // the line's newline
    // The most a line can grow to (text doubled and quoted, a float spelled out): no writer reallocates.
    out.reserve(2 * line.length + LONGEST_FIELD * count + 2);
    let bytes = out.bytes;
    let size = out.size;
    let i = 0;
    for (let c = 0; c < count; c++) {
      if (c > 0) bytes[size++] = COMMA;
      const start = i;
      const pass = passes[c];
      let written = pass === WRITTEN;
      if (pass === COPIED) {
        for (; i < last; i++) {
          const byte = line[i]!;
          if (byte === TAB) break;
          bytes[size++] = byte;
        }
        if (line[start] === BACKSLASH) size -= 2; // \N: NULL
      } else if (pass === COPIED_WHEN_PLAIN) {
        const mark = size;
        for (; i < last; i++) {
          const byte = line[i]!;
          if (byte === TAB) break;
          if (byte === BACKSLASH || byte === QUOTE || byte === COMMA) written = true;
          bytes[size++] = byte;
        }
        if (written || i === start) {
          size = mark;
          written = true;
        }
      } else while (i < last && line[i] !== TAB) i++;
      if (written && (i - start !== 2 || line[start] !== BACKSLASH || line[start + 1] !== LETTER_N)) {
        out.size = size;
        writers[c]!(out, line, start, i);
        bytes = out.bytes;
        size = out.size;
      }
      i++;
    }
    bytes[size++] = CR;
    bytes[size++] = LF;
    out.size = size;
  };
}
