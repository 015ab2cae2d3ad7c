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
  // JavaScript's shortest exact form, which PostgreSQL's differs from in exponents, -0 and extra_float_digits
  double: (printed) => String(Number(printed)),
  // bytea_output = hex: \x…
  bytes: (printed) => base64(Buffer.from(printed.slice(2), "hex")),
};

export function printedText(kind: CellKind): PrintedText {
  return PRINTED_TEXT[kind];
}
