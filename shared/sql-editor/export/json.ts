// JSON (contract §18.10): one array of row objects keyed by column name.
// Repeated column names are made distinct (a, a_2 …: distinctNames), so no
// value is lost to a later one of the same name. NULL is null, booleans and
// floats are JSON's own (NaN and ±Infinity, which JSON lacks, as strings),
// integers are numbers as the target printed them (exact, also beyond 2^53),
// everything else a string as the other formats print it.
import type { Cell, Column, Row } from "../cells.ts";
import { cellText, distinctNames, isIntegerText } from "./cell-text.ts";
import type { RowText } from "./text-chunks.ts";

export function jsonText(columns: readonly Column[]): RowText {
  const keys = distinctNames(columns).map((name) => `${JSON.stringify(name)}:`);
  return {
    head: "[",
    row: (row, index) => `${index === 0 ? "\n" : ",\n"}${jsonObject(columns, keys, row)}`,
    tail: "\n]\n",
  };
}

function jsonObject(columns: readonly Column[], keys: readonly string[], row: Row): string {
  let object = "{";
  for (let i = 0; i < row.length; i++) {
    if (i > 0) object += ",";
    object += keys[i]! + jsonValue(columns[i]!, row[i]!);
  }
  return `${object}}`;
}

function jsonValue(column: Column, cell: Cell): string {
  if (cell === null) return "null";
  if (typeof cell === "boolean") return cell ? "true" : "false";
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell) : `"${String(cell)}"`;
  if (isIntegerText(column, cell)) return cell;
  return JSON.stringify(cellText(cell));
}
