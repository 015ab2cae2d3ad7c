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

// A float printed in plain notation with at most 15 significant digits (no
// leading or trailing zero, not -0, not below 1e-6): every such decimal is
// the shortest that gives its double, so JavaScript prints it the same.
const PLAIN_FLOAT = /^-?(?:[1-9]\d*(?:\.\d*[1-9])?|0\.0{0,5}[1-9](?:\d*[1-9])?)$/;
const EXACT_DIGITS = 15;

/** JavaScript's shortest exact form, which PostgreSQL's differs from in exponents, -0 and with extra_float_digits ≠ 1. */
function floatText(printed: string): string {
  const digits = printed.length - (printed.startsWith("-") ? 1 : 0) - (printed.includes(".") ? 1 : 0);
  return digits <= EXACT_DIGITS && PLAIN_FLOAT.test(printed) ? printed : String(Number(printed));
}

export function printedText(kind: CellKind): PrintedText {
  return PRINTED_TEXT[kind];
}
