// The sql figure's export baseline: `COPY (<statement>) TO STDOUT` in CSV
// read by a bare pg client (its CopyData messages counted, not kept) from the
// target database BENCH_PG_URL — the rows the export reads, encoded by
// PostgreSQL itself, with no HTTP. Run pinned to the server core like the
// server; prints one JSON line {bytes, seconds, rssBeforeMb, rssPeakMb}.
import pg from "pg";
import { rssMb, withRssSampling } from "./harness/rss.ts";

const url = process.env.BENCH_PG_URL;
const statement = process.env.BENCH_SQL;
if (!url || !statement) throw new Error("BENCH_PG_URL and BENCH_SQL are required");

/** A query pg's client runs as any other, handing each CopyData message to us. */
class CopyOut {
  bytes = 0;
  readonly done = Promise.withResolvers<void>();
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    this.bytes += message.chunk.length;
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {
    this.done.resolve();
  }

  handleError(error: Error): void {
    this.done.reject(error);
  }
}

const client = new pg.Client({ connectionString: url });
await client.connect();
const started = performance.now();
const read = await withRssSampling(process.pid, async () => {
  const copy = new CopyOut(`copy (${statement}) to stdout with (format csv, header)`);
  void client.query(copy as never);
  await copy.done.promise;
  return copy.bytes;
});
const seconds = (performance.now() - started) / 1000;
await client.end();
const before = read.beforeMb ?? 0;
process.stdout.write(`${JSON.stringify({ bytes: read.result, seconds, rssBeforeMb: before, rssPeakMb: read.peakMb ?? rssMb(process.pid) ?? before })}\n`);
