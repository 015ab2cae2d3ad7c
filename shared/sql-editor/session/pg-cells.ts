// PostgreSQL values as result cells (cells.ts): the driver's text is handed
// over as is for every type an encoder prints as text (int8, numeric, json,
// arrays …); only booleans, floats, bytea and timestamps become something
// else. Type names are pg_type's, upper case; the built-in ones are known
// here, others are looked up on the target once per session (those below
// FirstNormalObjectId are the same on every server, so the process keeps them).
// An export may take the cells as printed instead, with no parser at all.
import pg from "pg";
import Cursor from "pg-cursor";
import { type CellKind, type Column, Timestamp } from "../cells.ts";

const BOOL = 16;
const BYTEA = 17;
const INTEGERS = new Set([20, 21, 23, 26]); // int8, int2, int4, oid
const FLOATS = new Set([700, 701]);
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;
const FIRST_NORMAL_OBJECT_ID = 16_384;

const identity = (text: string) => text;
const parseBool = (text: string) => text === "t";
const parseBytea = (text: string) => Buffer.from(text.slice(2), "hex"); // bytea_output = hex: \x…
const parseTimestamp = (text: string) => new Timestamp(text, false);
const parseTimestamptz = (text: string) => new Timestamp(text, true);

export function kindOf(oid: number): CellKind {
  if (oid === BOOL) return "bool";
  if (INTEGERS.has(oid)) return "int64";
  if (FLOATS.has(oid)) return "double";
  if (oid === BYTEA) return "bytes";
  if (oid === TIMESTAMP || oid === TIMESTAMPTZ) return "timestamp";
  return "text";
}

const PARSERS: Record<CellKind, (text: string) => unknown> = {
  bool: parseBool,
  int64: identity,
  double: Number,
  text: identity,
  bytes: parseBytea,
  timestamp: parseTimestamp,
};

/** The driver's type parsers for the session's queries (text format). */
const CELL_TYPES = {
  getTypeParser: (oid: number) => (oid === TIMESTAMPTZ ? parseTimestamptz : PARSERS[kindOf(oid)]),
};

const builtinNames = new Map<number, string>(Object.entries(pg.types.builtins).map(([name, oid]) => [oid, name]));

/** Type names by oid: the built-in ones for the process, the database's own per session. */
export class TypeNames {
  private readonly own = new Map<number, string>();

  /** The oids among these whose names are not known yet. */
  unknown(oids: readonly number[]): number[] {
    return [...new Set(oids.filter((oid) => this.nameOf(oid) === undefined))];
  }

  learn(rows: readonly { oid: number; name: string }[]): void {
    for (const { oid, name } of rows) (oid < FIRST_NORMAL_OBJECT_ID ? builtinNames : this.own).set(oid, name);
  }

  columns(fields: readonly { name: string; dataTypeID: number }[]): Column[] {
    return fields.map((f) => ({ name: f.name, typeName: this.nameOf(f.dataTypeID) ?? String(f.dataTypeID), kind: kindOf(f.dataTypeID) }));
  }

  private nameOf(oid: number): string | undefined {
    return builtinNames.get(oid) ?? this.own.get(oid);
  }
}

/** Reads the names of the oids (on a connection free to run it). */
export async function readTypeNames(client: pg.Client, oids: readonly number[]): Promise<{ oid: number; name: string }[]> {
  const result = await client.query("select oid::int as oid, upper(typname) as name from pg_type where oid = any($1::oid[])", [oids]);
  return result.rows as { oid: number; name: string }[];
}

/** No parser at all: every cell as the target printed it (a string, or null), for an export to print straight (export/printed-cells.ts). */
const PRINTED_TYPES = { getTypeParser: () => identity };

/**
 * A cursor whose rows are the protocol's own arrays of printed cells: pg's
 * Result would copy each into a new array through a parser per cell, and
 * emit a "row" event nobody listens to. handleDataRow is the hook pg calls
 * on a submitted query for each DataRow; `_rows` is the batch pg-cursor
 * hands to read().
 */
class PrintedCursor extends Cursor {
  handleDataRow(message: { fields: (string | null)[] }): void {
    (this as unknown as { _rows: (string | null)[][] })._rows.push(message.fields);
  }
}

/** The statement's cursor: its rows as values (CELL_TYPES), or `printed` (PRINTED_TYPES). */
export function statementCursor(statement: string, printed: boolean): Cursor {
  return printed ? new PrintedCursor(statement, undefined, { rowMode: "array", types: PRINTED_TYPES }) : new Cursor(statement, undefined, { rowMode: "array", types: CELL_TYPES });
}
