// CSV (contract §18.10, RFC 4180): a header row of the column names, then a
// line per row, lines ending with CRLF. A field holding a comma, a quote or
// a line break is quoted, its quotes doubled. NULL is an empty field and the
// empty string a quoted one (""), so the two stay apart, as PostgreSQL's COPY
// … CSV writes them.
import type { Column, Row } from "../cells.ts";
import { cellText } from "./cell-text.ts";
import type { RowText } from "./text-chunks.ts";

const NEEDS_QUOTES = /[",\r\n]/;

export function csvText(columns: readonly Column[]): RowText {
  return {
    head: `${columns.map((c) => field(c.name)).join(",")}\r\n`,
    row: (row) => csvLine(row),
    tail: "",
  };
}

function csvLine(row: Row): string {
  let line = "";
  for (let i = 0; i < row.length; i++) {
    const cell = row[i]!;
    if (i > 0) line += ",";
    if (cell !== null) line += field(cellText(cell));
  }
  return `${line}\r\n`;
}

function field(text: string): string {
  if (text === "") return '""';
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
