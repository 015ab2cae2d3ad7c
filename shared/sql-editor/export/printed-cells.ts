// PostgreSQL cells as the target printed them (text format, no type parser:
// pg-cells' PRINTED_TYPES) turned straight into the text the export files
// print for them (cell-text.ts), one converter per column chosen from its
// kind. The same bytes as the value path, without a value per cell: a
// boolean, a Timestamp or a buffer that would only be printed again.
import type { CellKind } from "../cells.ts";
import { base64 } from "./cell-text.ts";

/** A non-null printed cell as the files' text. */
export type PrintedText = (printed: string) => string;

const asPrinted: PrintedText = (printed) => printed;

const PRINTED_TEXT: Record<CellKind, PrintedText> = {
  bool: (printed) => (printed === "t" ? "true" : "false"),
  // integers, numerics and timestamps (with their zone) print as the target printed them
  int64: asPrinted,
  text: asPrinted,
  timestamp: asPrinted,
  double: floatText,
  // bytea_output = hex: \x…
  bytes: (printed) => base64(Buffer.from(printed.slice(2), "hex")),
};

const EXACT_DIGITS = 15;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
/** 0.000001 is the smallest plain form JavaScript keeps (1e-7 it writes with an exponent). */
const MOST_LEADING_ZEROS = 5;

/** JavaScript's shortest exact form, which PostgreSQL's differs from in exponents, -0 and with extra_float_digits ≠ 1. */
function floatText(printed: string): string {
  return isPlainShortestFloat(Buffer.from(printed, "latin1"), 0, printed.length) ? printed : String(Number(printed));
}

/**
 * Whether a float's printed bytes [start, end) are in plain notation with
 * at most 15 significant digits, no leading or trailing zero, not -0 and not
 * below 1e-6 (-?[1-9]\d*(\.\d*[1-9])? or -?0\.0{0,5}[1-9](\d*[1-9])?): every
 * such decimal is the shortest that gives its double, so JavaScript prints
 * it the same. On bytes, so that a COPY line's float is checked in place.
 */
export function isPlainShortestFloat(bytes: Uint8Array, start: number, end: number): boolean {
  let i = bytes[start] === MINUS ? start + 1 : start;
  const first = i;
  if (bytes[i] === ZERO) {
    if (bytes[i + 1] !== DOT) return false;
    i += 2;
    while (i < end && bytes[i] === ZERO) i++;
    if (i - first - 2 > MOST_LEADING_ZEROS) return false;
  } else {
    while (i < end && isDigit(bytes[i]!)) i++;
    if (i === first) return false;
    if (i === end) return i - first <= EXACT_DIGITS;
    if (bytes[i++] !== DOT) return false;
  }
  // a fraction of digits, not empty, ending in a non-zero one
  if (i === end || bytes[end - 1] === ZERO) return false;
  for (; i < end; i++) if (!isDigit(bytes[i]!)) return false;
  return end - first - 1 <= EXACT_DIGITS;
}

function isDigit(byte: number): boolean {
  return byte >= ZERO && byte <= NINE;
}

export function printedText(kind: CellKind): PrintedText {
  return PRINTED_TEXT[kind];
}
