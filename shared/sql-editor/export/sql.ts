// SQL (contract §18.10): one INSERT statement per row, in the source
// engine's dialect, so that replaying the file on a table of the same shape
// gives back the same values. Literals are quoted by the drivers' own
// escaping (pg's escapeLiteral, mysql2's escape, which assumes MySQL's
// default backslash escapes); repeated column names are made distinct as in
// JSON. A MySQL file first sets the session's time zone to UTC, the zone its
// TIMESTAMP values were read in.
import { escapeIdentifier, escapeLiteral } from "pg";
import { escape as mysqlEscape, escapeId as mysqlEscapeId } from "mysql2";
import type { Engine } from "../../inventory/index.ts";
import { type Cell, type Column, type Row, Timestamp } from "../cells.ts";
import { distinctNames, isIntegerText } from "./cell-text.ts";
import type { RowText } from "./text-chunks.ts";

interface Dialect {
  identifier(name: string): string;
  /** A non-null cell that is not an integer printed by the target. */
  literal(cell: Exclude<Cell, null>): string;
  head: string;
}

const DIALECTS: Record<Engine, Dialect> = {
  POSTGRES: { identifier: escapeIdentifier, literal: postgresLiteral, head: "" },
  MYSQL: { identifier: (name) => mysqlEscapeId(name, true), literal: mysqlLiteral, head: "SET time_zone = '+00:00';\n" },
};

/** `table`: the table's name, schema-qualified or not (["public", "orders"]). */
export function sqlText(columns: readonly Column[], engine: Engine, table: readonly string[]): RowText {
  const dialect = DIALECTS[engine];
  const names = distinctNames(columns).map((name) => dialect.identifier(name));
  const prefix = `INSERT INTO ${table.map((part) => dialect.identifier(part)).join(".")} (${names.join(", ")}) VALUES (`;
  return {
    head: dialect.head,
    row: (row) => `${prefix}${values(columns, row, dialect)});\n`,
    tail: "",
  };
}

function values(columns: readonly Column[], row: Row, dialect: Dialect): string {
  let list = "";
  for (let i = 0; i < row.length; i++) {
    const cell = row[i]!;
    if (i > 0) list += ", ";
    list += cell === null ? "NULL" : isIntegerText(columns[i]!, cell) ? cell : dialect.literal(cell);
  }
  return list;
}

function postgresLiteral(cell: Exclude<Cell, null>): string {
  if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell) : `'${String(cell)}'`;
  if (typeof cell === "string") return escapeLiteral(cell);
  if (cell instanceof Timestamp) return escapeLiteral(cell.text);
  return `decode('${Buffer.from(cell.buffer, cell.byteOffset, cell.byteLength).toString("hex")}', 'hex')`;
}

function mysqlLiteral(cell: Exclude<Cell, null>): string {
  if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell) : "NULL"; // MySQL stores no NaN or infinity
  if (typeof cell === "string") return mysqlEscape(cell);
  if (cell instanceof Timestamp) return mysqlEscape(cell.text);
  return mysqlEscape(Buffer.from(cell.buffer, cell.byteOffset, cell.byteLength));
}
