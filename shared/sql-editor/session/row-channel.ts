// A statement's rows handed from a read session, which pushes them into a
// RowSink, to a consumer that pulls them in batches (an export's encoder).
// Backpressure both ways: the session reads the next batch from the target
// while the consumer works on this one, then waits until the consumer takes
// it, so at most two batches are held whatever the row count. At most
// `limit` rows pass; the first row beyond stops the read. A consumer that
// stops (or never starts) stops the read at its next batch.
import type { Column, Row } from "../cells.ts";
import type { RowSink } from "./read-session.ts";

interface Offered {
  batch: Row[];
  /** Answers the session: whether it should read on. */
  taken: (more: boolean) => void;
  last: boolean;
}

export class RowChannel implements RowSink {
  /** The result's columns; rejects with the read's failure when it fails before describing them. */
  readonly described: Promise<Column[]>;
  private readonly describe = Promise.withResolvers<Column[]>();
  private room: number;
  private readonly offered: Offered[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private failure: unknown;
  private stopped = false;

  /** `limit`: the most rows that pass; undefined for all. */
  constructor(limit: number | undefined) {
    this.room = limit ?? Number.POSITIVE_INFINITY;
    this.described = this.describe.promise;
    this.described.catch(() => undefined); // a failure nobody waits for is not unhandled
  }

  columns(columns: Column[]): void {
    this.describe.resolve(columns);
  }

  rows(batch: Row[]): boolean | Promise<boolean> {
    if (this.stopped || this.room === 0) return false;
    const last = batch.length > this.room;
    const rows = last ? batch.slice(0, this.room) : batch;
    this.room -= rows.length;
    return new Promise((resolve) => {
      this.offered.push({ batch: rows, taken: resolve, last });
      this.signal();
    });
  }

  /** The read is over: `failure` when it failed. Rows already offered are still handed over first. */
  end(failure?: unknown): void {
    this.ended = true;
    this.failure = failure;
    if (failure === undefined) this.describe.resolve([]);
    else this.describe.reject(failure);
    this.signal();
  }

  /** The consumer is gone: the read stops at its next batch. */
  stop(): void {
    this.stopped = true;
    for (const offered of this.offered.splice(0)) offered.taken(false);
    this.signal();
  }

  /** The rows, batch by batch; throws the read's failure after the rows it sent. */
  async *batches(): AsyncGenerator<Row[]> {
    try {
      for (;;) {
        while (this.offered.length === 0 && !this.ended && !this.stopped) await new Promise<void>((resolve) => (this.wake = resolve));
        const offered = this.offered.shift();
        if (!offered) break;
        offered.taken(!offered.last);
        yield offered.batch;
      }
      if (this.failure !== undefined && !this.stopped) throw this.failure;
    } finally {
      this.stop();
    }
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
