// MySQL/MariaDB values as result cells (cells.ts). The driver reads them with
// options that keep the server's text where an encoder prints text (BIGINT,
// DECIMAL, JSON, dates and times as strings) and bytes for binary strings;
// a few columns are then adjusted in place per row: smaller integers back to
// their text, DATETIME and TIMESTAMP (read in UTC) into Timestamps, spatial
// and vector values into text. Type names are MySQL's own, upper case.
import { type CellKind, type Column, type Row, Timestamp } from "../cells.ts";

const BINARY_CHARSET = 63;
const UNSIGNED_FLAG = 32;
const ENUM_FLAG = 256;
const SET_FLAG = 2048;

/** Each MySQL protocol type: its name, or its text and binary names, and its kind. */
const TYPES: Record<number, { name: string; binaryName?: string; kind: CellKind }> = {
  0x00: { name: "DECIMAL", kind: "text" },
  0x01: { name: "TINYINT", kind: "int64" },
  0x02: { name: "SMALLINT", kind: "int64" },
  0x03: { name: "INT", kind: "int64" },
  0x04: { name: "FLOAT", kind: "double" },
  0x05: { name: "DOUBLE", kind: "double" },
  0x06: { name: "NULL", kind: "text" },
  0x07: { name: "TIMESTAMP", kind: "timestamp" },
  0x08: { name: "BIGINT", kind: "int64" },
  0x09: { name: "MEDIUMINT", kind: "int64" },
  0x0a: { name: "DATE", kind: "text" },
  0x0b: { name: "TIME", kind: "text" },
  0x0c: { name: "DATETIME", kind: "timestamp" },
  0x0d: { name: "YEAR", kind: "int64" },
  0x0e: { name: "DATE", kind: "text" },
  0x0f: { name: "VARCHAR", binaryName: "VARBINARY", kind: "text" },
  0x10: { name: "BIT", kind: "bytes" },
  0xf2: { name: "VECTOR", kind: "text" },
  0xf5: { name: "JSON", kind: "text" },
  0xf6: { name: "DECIMAL", kind: "text" },
  0xf7: { name: "ENUM", kind: "text" },
  0xf8: { name: "SET", kind: "text" },
  0xf9: { name: "TINYTEXT", binaryName: "TINYBLOB", kind: "text" },
  0xfa: { name: "MEDIUMTEXT", binaryName: "MEDIUMBLOB", kind: "text" },
  0xfb: { name: "LONGTEXT", binaryName: "LONGBLOB", kind: "text" },
  0xfc: { name: "TEXT", binaryName: "BLOB", kind: "text" },
  0xfd: { name: "VARCHAR", binaryName: "VARBINARY", kind: "text" },
  0xfe: { name: "CHAR", binaryName: "BINARY", kind: "text" },
  0xff: { name: "GEOMETRY", kind: "text" },
};

/** A column as the driver describes it. */
export interface Field {
  name: string;
  columnType?: number;
  characterSet?: number;
  flags?: number;
  /** MariaDB's extended metadata: uuid, inet4 …; json. */
  extendedTypeName?: string;
  extendedFormat?: string;
}

export function columnOf(field: Field): Column {
  const type = TYPES[field.columnType ?? 0xfd] ?? { name: "UNKNOWN", kind: "text" as const };
  const binary = field.characterSet === BINARY_CHARSET && type.binaryName !== undefined && field.extendedFormat !== "json";
  const flags = field.flags ?? 0;
  let typeName = binary ? type.binaryName! : type.name;
  if (flags & ENUM_FLAG) typeName = "ENUM";
  if (flags & SET_FLAG) typeName = "SET";
  if (field.extendedFormat === "json") typeName = "JSON";
  else if (field.extendedTypeName) typeName = field.extendedTypeName.toUpperCase();
  if (type.kind === "int64" && flags & UNSIGNED_FLAG) typeName += " UNSIGNED";
  return { name: field.name, typeName, kind: binary ? "bytes" : type.kind };
}

type Adjust = (value: NonNullable<unknown>) => Row[number];

/** Adjusts a row of these fields in place, as the driver read it; undefined when no column needs it. */
export function rowAdjuster(fields: readonly Field[], columns: readonly Column[]): ((row: Row) => Row) | undefined {
  const adjustments: [number, Adjust][] = [];
  columns.forEach((column, i) => {
    const adjust = adjustmentOf(fields[i]!, column);
    if (adjust) adjustments.push([i, adjust]);
  });
  if (adjustments.length === 0) return undefined;
  return (row) => {
    for (const [i, adjust] of adjustments) if (row[i] !== null) row[i] = adjust(row[i] as NonNullable<unknown>);
    return row;
  };
}

function adjustmentOf(field: Field, column: Column): Adjust | undefined {
  if (column.kind === "int64" && field.columnType !== 0x08) return String;
  if (column.kind === "timestamp") return field.columnType === 0x07 ? (v) => new Timestamp(v as string, true) : (v) => new Timestamp(v as string, false);
  if (field.columnType === 0xff || field.columnType === 0xf2) return (v) => JSON.stringify(v);
  return undefined;
}
