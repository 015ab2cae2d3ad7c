// The CSV file of a PostgreSQL export read through COPY (docs/decisions/0131):
// each line is written as its CSV line straight into a chunk of about 64 KiB
// as it arrives; full chunks wait for the consumer (the download), and past
// two waiting the session stops reading from the target until one is taken.
// At most `limit` rows. As text-chunks.ts: a row that would take the file
// past its byte bound is dropped with every row after it, the file is still
// whole, and `stoppedBy` names the bound.
import { CHUNK_BYTES } from "../../platform/index.ts";
import type { Column } from "../cells.ts";
import type { CopyLineSink } from "../session/read-session.ts";
import { ByteSink, copyLineWriter } from "./copy-csv.ts";
import { csvText } from "./csv.ts";
import type { ExportProgress } from "./text-chunks.ts";

const WAITING_CHUNKS = 2;

export interface CopyCsvBound {
  /** The most rows; undefined: all. */
  limit: number | undefined;
  /** The most bytes of the file; undefined: none. */
  maxBytes: number | undefined;
  /** What to report when the bytes stop the export. */
  name: string;
}

export class CopyCsvChunks implements CopyLineSink {
  readonly progress: ExportProgress = { rows: 0, stoppedBy: "" };
  private readonly bound: CopyCsvBound;
  private readonly maxBytes: number;
  private readonly out = new ByteSink(CHUNK_BYTES * 2);
  /** Bytes of the file in chunks already taken from `out`. */
  private taken = 0;
  private readonly waiting: Buffer[] = [];
  private writeLine: ((out: ByteSink, line: Buffer) => void) | undefined;
  private ended = false;
  private failure: unknown;
  private stopped = false;
  private wakeConsumer: (() => void) | undefined;
  private resumeReader: ((more: boolean) => void) | undefined;

  constructor(bound: CopyCsvBound) {
    this.bound = bound;
    this.maxBytes = bound.maxBytes ?? Number.POSITIVE_INFINITY;
  }

  columns(columns: Column[]): void {
    this.writeLine = copyLineWriter(columns.map((c) => c.kind));
    this.out.text(csvText(columns).head);
  }

  line(bytes: Buffer): boolean {
    if (this.stopped || this.progress.stoppedBy || this.progress.rows === this.bound.limit) return false;
    const start = this.out.size;
    this.writeLine!(this.out, bytes);
    if (this.taken + this.out.size > this.maxBytes) {
      this.out.size = start;
      this.progress.stoppedBy = this.bound.name;
      return false;
    }
    this.progress.rows++;
    if (this.out.size >= CHUNK_BYTES) {
      this.waiting.push(this.take());
      this.wake();
    }
    return true;
  }

  backlog(): Promise<boolean> | undefined {
    if (this.waiting.length < WAITING_CHUNKS) return undefined;
    return new Promise((resolve) => (this.resumeReader = resolve));
  }

  /** The read is over: `failure` when it failed. Chunks already full are still handed over first. */
  end(failure?: unknown): void {
    this.ended = true;
    this.failure = failure;
    this.wake();
  }

  /** The consumer is gone: the read stops. */
  stop(): void {
    this.stopped = true;
    this.resume(false);
    this.wake();
  }

  /** The file's chunks; throws the read's failure after the chunks it filled. */
  async *chunks(): AsyncGenerator<Buffer> {
    try {
      for (;;) {
        const chunk = this.waiting.shift();
        if (chunk) {
          if (this.waiting.length < WAITING_CHUNKS) this.resume(true);
          yield chunk;
        } else if (this.ended) break;
        else await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
      }
      if (this.failure !== undefined) throw this.failure;
      yield this.take();
    } finally {
      this.stop();
    }
  }

  /** What `out` holds, as a chunk of its own size; `out` keeps its buffer (half the memory a chunk would hold while it waits for the socket). */
  private take(): Buffer {
    const chunk = Buffer.allocUnsafe(this.out.size);
    this.out.bytes.copy(chunk, 0, 0, this.out.size);
    this.taken += chunk.length;
    this.out.size = 0;
    return chunk;
  }

  private wake(): void {
    const wake = this.wakeConsumer;
    this.wakeConsumer = undefined;
    wake?.();
  }

  private resume(more: boolean): void {
    const resume = this.resumeReader;
    this.resumeReader = undefined;
    resume?.(more);
  }
}
