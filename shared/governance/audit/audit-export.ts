// Audit export (contract §8.3, §18.9): every record a query matches, as CSV,
// one JSON array or NDJSON, produced in keyset batches so that memory stays
// bounded whatever the size: one batch being encoded, the next being read,
// one chunk of text. No transaction is held: each batch is one short query
// continuing after the previous batch's last record.
import type { CommonQueryMethods } from "slonik";
import { CHUNK_BYTES, ChunkWriter } from "../../platform/index.ts";
import { auditCsvHeader, auditCsvRow } from "./audit-csv.ts";
import { auditRecordJson, type AuditRecordJson } from "./audit-json.ts";
import type { AuditQuery } from "./audit-search.ts";
import { findAuditRecords, type AuditPosition, type PositionedAuditRecord } from "./audit-search.store.ts";

export type AuditExportFormat = "CSV" | "JSON" | "NDJSON";

interface Encoding {
  contentType: string;
  extension: string;
  head: () => string;
  /** One record; `index` counts from 0. */
  record: (json: AuditRecordJson, index: number) => string;
  tail: string;
}

const ENCODINGS: Record<AuditExportFormat, Encoding> = {
  CSV: { contentType: "text/csv; charset=utf-8", extension: "csv", head: auditCsvHeader, record: auditCsvRow, tail: "" },
  JSON: {
    contentType: "application/json",
    extension: "json",
    head: () => "[",
    record: (json, index) => `${index === 0 ? "\n" : ",\n"}${JSON.stringify(json)}`,
    tail: "\n]\n",
  },
  NDJSON: { contentType: "application/x-ndjson", extension: "ndjson", head: () => "", record: (json) => `${JSON.stringify(json)}\n`, tail: "" },
};

/** Records read per query. */
const BATCH_SIZE = 1000;

export interface AuditExport {
  contentType: string;
  filename: string;
  /**
   * The file in chunks of UTF-8. The first is produced after the first batch
   * was read, so that a failing query is reported before anything was sent.
   */
  chunks: AsyncGenerator<Buffer, void, undefined>;
}

export interface AuditExportOptions {
  /** Stops the export between chunks (the client went away). */
  signal: AbortSignal;
  /** Told the number of records handed on so far, before each chunk. */
  onProgress: (records: number) => void;
  now?: Date;
}

export function exportAuditLogs(db: CommonQueryMethods, query: AuditQuery, format: AuditExportFormat, options: AuditExportOptions): AuditExport {
  const encoding = ENCODINGS[format];
  const stamp = (options.now ?? new Date()).toISOString().replace(/\.\d+/, "").replace(/[-:]/g, "");
  return {
    contentType: encoding.contentType,
    filename: `audit-logs-${stamp}.${encoding.extension}`,
    chunks: encodedChunks(db, query, encoding, options),
  };
}

async function* encodedChunks(db: CommonQueryMethods, query: AuditQuery, encoding: Encoding, options: AuditExportOptions) {
  const batch = (after: AuditPosition | undefined) => findAuditRecords(db, { terms: query.terms, desc: query.desc, after, limit: BATCH_SIZE });
  const chunk = new ChunkWriter();
  chunk.write(encoding.head());
  let count = 0;
  // The next batch is read while this one is encoded, so the database and the encoding overlap.
  let next: Promise<PositionedAuditRecord[]> | undefined = batch(undefined);
  try {
    while (next) {
      const rows: PositionedAuditRecord[] = await next;
      options.signal.throwIfAborted();
      next = rows.length === BATCH_SIZE ? batch(rows.at(-1)!.position) : undefined;
      for (const row of rows) {
        chunk.write(encoding.record(auditRecordJson(row), count++));
        if (chunk.size < CHUNK_BYTES) continue;
        options.onProgress(count);
        yield chunk.take();
      }
    }
  } finally {
    next?.catch(() => undefined); // a read ahead that nobody takes any more
  }
  chunk.write(encoding.tail);
  options.onProgress(count);
  yield chunk.take();
}
