// CSV (contract §18.10, RFC 4180): a header row of the column names, then a
// line per row, lines ending with CRLF. A field holding a comma, a quote or
// a line break is quoted, its quotes doubled. NULL is an empty field and the
// empty string a quoted one (""), so the two stay apart, as PostgreSQL's COPY
// … CSV writes them. Rows come as values, or (a PostgreSQL export) as the
// target printed them (printed-cells.ts), or as COPY's lines (copy-csv.ts);
// the file is the same.
import type { Cell, Column, Row } from "../cells.ts";
import { cellText } from "./cell-text.ts";
import { printedText } from "./printed-cells.ts";
import type { RowText } from "./text-chunks.ts";

const NEEDS_QUOTES = /[",\r\n]/;

type FieldText = (cell: Exclude<Cell, null>) => string;

/** `printed`: every cell is a string as the target printed it, or null. */
export function csvText(columns: readonly Column[], printed = false): RowText {
  const fields = columns.map((column) => fieldTextOf(column, printed));
  return {
    head: `${columns.map((c) => csvField(c.name)).join(",")}\r\n`,
    row: (row) => csvLine(row, fields),
    tail: "",
  };
}

/**
 * How a column's cells become fields, chosen once per file: only text can
 * hold a comma, a quote or a line break, and only text or bytes can be
 * empty, so the other kinds (integers and timestamps as the target printed
 * them, numbers, booleans) skip the check that would quote them.
 */
function fieldTextOf(column: Column, printed: boolean): FieldText {
  const text = (printed ? printedText(column.kind) : cellText) as FieldText;
  if (column.kind !== "text" && column.kind !== "bytes") return text;
  return column.kind === "text" && printed ? (cell) => csvField(cell as string) : (cell) => csvField(text(cell));
}

function csvLine(row: Row, fields: readonly FieldText[]): string {
  let line = "";
  for (let i = 0; i < row.length; i++) {
    const cell = row[i]!;
    if (i > 0) line += ",";
    if (cell !== null) line += fields[i]!(cell);
  }
  return `${line}\r\n`;
}

/** A field's text, quoted when it must be (an empty string always is). */
export function csvField(text: string): string {
  if (text === "") return '""';
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
