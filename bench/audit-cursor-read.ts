// The audit-log figure's export baseline: every audit record of BENCH_PG_URL,
// newest first, through a server-side cursor with a bare pg client — the rows
// the export reads, with no encoding and no HTTP. Run pinned to the server
// core like the server; prints one JSON line {records, seconds, rssBeforeMb,
// rssPeakMb} (this process's resident memory before the read and at its peak).
import pg from "pg";
import { AUDIT_COLUMNS, NEWEST_FIRST } from "./figures/audit-log-seed.ts";
import { rssMb, withRssSampling } from "./harness/rss.ts";

const url = process.env.BENCH_PG_URL;
if (!url) throw new Error("BENCH_PG_URL is required");
const FETCH_ROWS = 1000;

const client = new pg.Client({ connectionString: url });
await client.connect();
const started = performance.now();
const read = await withRssSampling(process.pid, readAll);
const seconds = (performance.now() - started) / 1000;
await client.end();
const before = read.beforeMb ?? 0;
process.stdout.write(`${JSON.stringify({ records: read.result, seconds, rssBeforeMb: before, rssPeakMb: read.peakMb ?? rssMb(process.pid) ?? before })}\n`);

async function readAll(): Promise<number> {
  await client.query("begin read only");
  await client.query(`declare export_cursor no scroll cursor for select ${AUDIT_COLUMNS} from audit_log ${NEWEST_FIRST}`);
  let records = 0;
  for (;;) {
    const batch = await client.query(`fetch ${FETCH_ROWS} from export_cursor`);
    records += batch.rowCount ?? 0;
    if ((batch.rowCount ?? 0) < FETCH_ROWS) break;
  }
  await client.query("commit");
  return records;
}
