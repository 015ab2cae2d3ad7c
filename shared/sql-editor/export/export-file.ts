// An export file (contract §14.4, §18.10) from a result's columns and its
// rows as they arrive: CSV, JSON, SQL or XLSX, streamed in chunks of about
// 64 KiB with bounded memory whatever the row count. The bound (the
// workspace's sql_result_size) is kept at a whole row: the rows that would
// pass it are left out and the file is still ended, whole; `stoppedBy` then
// names the bound, and the caller ends the call with resource_exhausted.
// For XLSX the bound counts the sheet's XML before compression, so the file
// stays well under it.
import type { Engine } from "../../inventory/index.ts";
import type { Column, Row } from "../cells.ts";
import { csvText } from "./csv.ts";
import { jsonText } from "./json.ts";
import { sqlText } from "./sql.ts";
import { type ExportProgress, type RowText, textChunks } from "./text-chunks.ts";
import { sheetText, XLSX_CONTENT_TYPE, XLSX_MAX_ROWS, XLSX_OVERHEAD_BYTES, xlsxChunks } from "./xlsx.ts";

export type ExportFormat = "CSV" | "JSON" | "SQL" | "XLSX";

export interface ExportOptions {
  /** The most bytes of the file (sql_result_size); undefined: none. */
  maxBytes: number | undefined;
  /** How the bound is named when it stops the export, e.g. "sql_result_size (104857600 bytes)". */
  boundName: string;
  /** SQL: the engine whose literals the INSERTs use, and the table they name (exportTableName). */
  engine: Engine;
  table: readonly string[];
  /** The rows' cells are PostgreSQL's printed text (pg-cells' PRINTED_TYPES), not values: CSV only. */
  printed?: boolean;
}

export interface ExportFile {
  contentType: string;
  extension: string;
  /** The file's bytes; pulling them pulls the rows. */
  chunks: AsyncIterable<Uint8Array>;
  /** Rows written so far, and once the chunks are done, what stopped the export early ("" when nothing did). */
  progress: Readonly<ExportProgress>;
}

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";

const TEXT_FORMATS: Record<Exclude<ExportFormat, "XLSX">, { contentType: string; extension: string; text: (columns: readonly Column[], options: ExportOptions) => RowText }> = {
  CSV: { contentType: CSV_CONTENT_TYPE, extension: "csv", text: (columns, options) => csvText(columns, options.printed) },
  JSON: { contentType: "application/json", extension: "json", text: jsonText },
  SQL: { contentType: "application/sql", extension: "sql", text: (columns, options) => sqlText(columns, options.engine, options.table) },
};

export function exportFile(format: ExportFormat, columns: readonly Column[], batches: AsyncIterable<Row[]>, options: ExportOptions): ExportFile {
  const progress: ExportProgress = { rows: 0, stoppedBy: "" };
  if (format === "XLSX") {
    const maxBytes = options.maxBytes === undefined ? undefined : options.maxBytes - XLSX_OVERHEAD_BYTES;
    const bound = { maxBytes, name: options.boundName, maxRows: XLSX_MAX_ROWS, maxRowsName: `the spreadsheet's ${XLSX_MAX_ROWS} rows` };
    return { contentType: XLSX_CONTENT_TYPE, extension: "xlsx", chunks: xlsxChunks(textChunks(sheetText(columns), batches, bound, progress)), progress };
  }
  const { contentType, extension, text } = TEXT_FORMATS[format];
  const chunks = textChunks(text(columns, options), batches, { maxBytes: options.maxBytes, name: options.boundName }, progress);
  return { contentType, extension, chunks, progress };
}
