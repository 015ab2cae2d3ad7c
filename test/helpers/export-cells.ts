// Result cells with awkward values for the export writers' tests, as the
// SQL Editor's read sessions hand them over, and a way to read a file back.
import { exportFile, type ExportFormat, type ExportOptions } from "../../shared/sql-editor/export/export-file.ts";
import { type Column, type Row, Timestamp } from "../../shared/sql-editor/cells.ts";

export const AWKWARD_COLUMNS: Column[] = [
  { name: "id", typeName: "INT8", kind: "int64" },
  { name: "text", typeName: "TEXT", kind: "text" },
  { name: "amount", typeName: "NUMERIC", kind: "text" },
  { name: "flag", typeName: "BOOL", kind: "bool" },
  { name: "ratio", typeName: "FLOAT8", kind: "double" },
  { name: "blob", typeName: "BYTEA", kind: "bytes" },
  { name: "at", typeName: "TIMESTAMPTZ", kind: "timestamp" },
  { name: "text", typeName: "TEXT", kind: "text" },
];

export const AWKWARD_ROWS: Row[] = [
  ["9223372036854775807", 'quote " and, comma', "12345678901234567890.123456789", true, 1.5, Buffer.from([0, 1, 255]), new Timestamp("2024-05-06 07:08:09.123456+05:30", true), "first"],
  ["-9223372036854775808", "line\nbreak\r\nünïcødé ☃ 😀", "-0.5", false, Number.NaN, Buffer.alloc(0), new Timestamp("2024-05-06 07:08:09.5", false), "it's C:\\path\\n"],
  ["3", "", null, null, Number.NEGATIVE_INFINITY, null, null, null],
];

export const EXPORT_DEFAULTS: ExportOptions = { maxBytes: undefined, boundName: "sql_result_size (test)", engine: "POSTGRES", table: ["export"] };

async function* inBatches(rows: readonly Row[], size: number): AsyncGenerator<Row[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/** The whole file, and what the export reported. */
export async function exportBytes(format: ExportFormat, columns: readonly Column[], rows: readonly Row[], options: Partial<ExportOptions> = {}) {
  const file = exportFile(format, columns, inBatches(rows, 2), { ...EXPORT_DEFAULTS, ...options });
  const chunks: Uint8Array[] = [];
  for await (const chunk of file.chunks) chunks.push(chunk);
  return { bytes: Buffer.concat(chunks), contentType: file.contentType, extension: file.extension, ...file.progress };
}
