// CSV of audit records (contract §18.9, RFC 4180): one column per field of
// the record's JSON form, in §8.1 order; nested values (status, detail) as
// JSON text; lines end with CRLF; a cell holding a comma, a quote or a line
// break is quoted, its quotes doubled.
import { AUDIT_RECORD_FIELDS, type AuditRecordJson } from "./audit-json.ts";

const NEEDS_QUOTES = /[",\r\n]/;

export function auditCsvHeader(): string {
  return csvLine(AUDIT_RECORD_FIELDS);
}

export function auditCsvRow(record: AuditRecordJson): string {
  return csvLine(AUDIT_RECORD_FIELDS.map((field) => cellText(record[field])));
}

function cellText(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined || value === null ? "" : JSON.stringify(value);
}

function csvLine(cells: readonly string[]): string {
  return `${cells.map(quoted).join(",")}\r\n`;
}

function quoted(cell: string): string {
  return NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}
