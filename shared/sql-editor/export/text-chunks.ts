// The streaming core of every export file: rows arrive in batches and are
// encoded as text straight into chunks of about 64 KiB of UTF-8 (no object
// per cell, one string per row), each chunk handed on as it fills. A row
// that would take the file past its byte bound is dropped with every row
// after it; the file is still ended, so what is sent is a whole file of
// whole rows (contract §14.4).
import { CHUNK_BYTES, ChunkWriter } from "../../platform/index.ts";
import type { Row } from "../cells.ts";

/** A text format: what comes before the rows, each row, what comes after. */
export interface RowText {
  head: string;
  /** One row with its separators; `index` counts from 0. */
  row(row: Row, index: number): string;
  tail: string;
}

/** How far an export got: rows written, and whether its bound stopped it. */
export interface ExportProgress {
  rows: number;
  /** Why rows were left out ("" while none were): the bound that stopped the export. */
  stoppedBy: string;
}

export interface TextBound {
  /** The most bytes of text (head, rows and tail); undefined: none. */
  maxBytes: number | undefined;
  /** What to report when it stops the export. */
  name: string;
  /** The most rows; undefined: none. */
  maxRows?: number;
  maxRowsName?: string;
}

/**
 * Rows are encoded a few hundred at a time rather than one by one (one
 * UTF-8 encoding call per row was a tenth of a CSV export's time): they are
 * held back as text while even three bytes per UTF-16 unit could not take
 * the file past its bound; near the bound each row is measured alone.
 */
const HELD_BACK_CHARS = 16 * 1024;

export async function* textChunks(text: RowText, batches: AsyncIterable<Row[]>, bound: TextBound, progress: ExportProgress): AsyncGenerator<Buffer> {
  const chunk = new ChunkWriter();
  const room = (bound.maxBytes ?? Number.POSITIVE_INFINITY) - Buffer.byteLength(text.tail);
  let size = chunk.write(text.head);
  let heldBack = "";
  const encodeHeldBack = () => {
    size += chunk.write(heldBack);
    heldBack = "";
  };
  rows: for await (const batch of batches) {
    for (const row of batch) {
      if (progress.rows === bound.maxRows) {
        progress.stoppedBy = bound.maxRowsName ?? "";
        break rows;
      }
      const line = text.row(row, progress.rows);
      if (size + 3 * (heldBack.length + line.length) <= room) {
        heldBack += line;
        progress.rows++;
        if (heldBack.length < HELD_BACK_CHARS) continue;
        encodeHeldBack();
      } else {
        encodeHeldBack();
        const rowSize = chunk.write(line);
        if (size + rowSize > room) {
          chunk.truncate(chunk.size - rowSize);
          progress.stoppedBy = bound.name;
          break rows;
        }
        size += rowSize;
        progress.rows++;
      }
      if (chunk.size >= CHUNK_BYTES) yield chunk.take();
    }
  }
  encodeHeldBack();
  chunk.write(text.tail);
  yield chunk.take();
}
