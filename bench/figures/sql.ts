// The SQL Editor (contract §14) through the real server over REST, on a
// target database of 1,000,000 rows × 6 columns (sql-target.ts):
//   export_csv — POST /v1/sql:export of every row as CSV, read to its end:
//     rows/s (target ≥ 0.5 of the baseline: `COPY (same query) TO STDOUT` in
//     CSV read by a bare pg client pinned to the server core) and the growth
//     of the server's RSS while it streams (target ≤ 100 MiB);
//   export_xlsx — the same rows as XLSX: rows/s (reported against the same
//     baseline) and RSS growth (target ≤ 150 MiB);
//   query — POST /v1/sql:query of 10,000 rows, p50 at one connection
//     (target ≤ 2× a bare pg client running the same statement: ratio ≥ 0.5);
//   readonly_parse — the read-only guard over a 100-statement script, p50 in
//     this process (target ≤ 10 ms), against the engine's parser alone on the
//     same script, for PostgreSQL and MySQL.
// Warm-up, not measured: a few small Queries, so that V8 has compiled
// libpg-query's parser with TurboFan (a one-time spike of about 500 MiB of
// the server's RSS, see bench/README.md), then each format exported once,
// 100,000 rows: V8 sizes its heap to an export's allocation rate on the
// first one (bench/README.md, audit-log).
import { type ChildServer, runChildScript, startChildServer } from "../harness/child-server.ts";
import { apiClient, createWorkspaceAdmin } from "../harness/api-client.ts";
import { http1Load } from "../harness/http1-load.ts";
import { describeLoad } from "../harness/load-result.ts";
import { pgLoad } from "../harness/pg-load.ts";
import { withRssSampling } from "../harness/rss.ts";
import { note, ratioOf, type BenchContext, type Figure, type Row, type Target } from "../harness/types.ts";
import { measureReadOnlyParse } from "./sql-parse.ts";
import { createSqlTarget, type SqlTarget, TABLE } from "./sql-target.ts";

const ROWS = 1_000_000;
const QUERY_ROWS = 10_000;
const WARM_UP_ROWS = 100_000;
const WARM_UP_QUERIES = 20;
const LOGIN = { loginId: "bench-sql", password: "Bench-Sql-Pass-1" };
const EXPORT_STATEMENT = `select * from ${TABLE}`;
const TARGETS: Record<string, Target[]> = {
  export_csv: [{ on: "ratio", min: 0.5 }],
  export_csv_rss_growth: [{ on: "value", max: 100 }],
  export_xlsx: [],
  export_xlsx_rss_growth: [{ on: "value", max: 150 }],
  query: [{ on: "ratio", min: 0.5 }],
};

/** What bench/sql-copy-read.ts reports. */
interface CopyRead {
  bytes: number;
  seconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

interface Session {
  server: ChildServer;
  token: string;
  target: SqlTarget;
}

export const sqlFigure: Figure = {
  name: "sql",
  description: "SQL Editor over REST on 1M rows × 6 columns: CSV and XLSX exports (rows/s, server RSS growth) vs COPY TO STDOUT, a 10,000-row Query vs a bare pg client, the read-only parse of 100 statements",
  async run(context: BenchContext): Promise<Row[]> {
    await createWorkspaceAdmin(context.databaseUrl, LOGIN);
    const server = await startChildServer("server-process.ts", { BENCH_PG_URL: context.databaseUrl, BENCH_SERVER_FLAGS: "--rate-limit-per-user 0" }, context.cpuProfDir);
    let target: SqlTarget | undefined;
    try {
      const api = await apiClient(server.port, LOGIN);
      target = await createSqlTarget(context.databaseUrl, api, ROWS);
      const session = { server, token: api.token, target };
      await warmUpParser(session);
      const copy = await runChildScript<CopyRead>("sql-copy-read.ts", { BENCH_PG_URL: target.url, BENCH_SQL: EXPORT_STATEMENT });
      note(`bare COPY TO STDOUT (CSV): ${Math.round(ROWS / copy.seconds)} rows/s, ${copy.seconds.toFixed(2)} s, ${(copy.bytes / 2 ** 20).toFixed(0)} MiB`);
      const rows = [...(await measureExport(session, "CSV", copy)), ...(await measureExport(session, "XLSX", copy))];
      rows.push(await measureQuery(context, session));
      return [...rows, ...(await measureReadOnlyParse(context))];
    } finally {
      await server.stop();
      await target?.drop();
    }
  },
};

/** Two rows: rows/s against COPY's, and the growth of the server's RSS while it streamed. */
async function measureExport(session: Session, format: "CSV" | "XLSX", copy: CopyRead): Promise<Row[]> {
  await download(session, { format, limit: WARM_UP_ROWS });
  note(`exporting ${ROWS.toLocaleString("en")} rows as ${format}`);
  const exported = await withRssSampling(session.server.pid, () => download(session, { format, limit: 0 }));
  const { bytes, seconds } = exported.result;
  const rate = ROWS / seconds;
  const copyRate = ROWS / copy.seconds;
  const growthMb = (exported.peakMb ?? 0) - (exported.beforeMb ?? 0);
  const copyGrowthMb = copy.rssPeakMb - copy.rssBeforeMb;
  note(`${format} export: ${Math.round(rate)} rows/s, ${seconds.toFixed(2)} s, ${(bytes / 2 ** 20).toFixed(0)} MiB, server RSS ${exported.beforeMb?.toFixed(0)} → peak ${exported.peakMb?.toFixed(0)} MiB`);
  const name = `export_${format.toLowerCase()}`;
  return [
    { name: `sql.${name}`, value: Math.round(rate), unit: "rows/s", baseline: Math.round(copyRate), ratio: ratioOf(rate, copyRate), targets: TARGETS[name] },
    {
      name: `sql.${name}_rss_growth`,
      value: Math.round(growthMb),
      unit: "MiB",
      baseline: Math.round(copyGrowthMb),
      ratio: ratioOf(copyGrowthMb, growthMb),
      targets: TARGETS[`${name}_rss_growth`],
      detail: { note: `server RSS ${exported.beforeMb?.toFixed(0)} → peak ${exported.peakMb?.toFixed(0)} MiB while streaming ${(bytes / 2 ** 20).toFixed(0)} MiB; baseline: the bare COPY read's growth` },
    },
  ];
}

/** Small Queries, each parsed by libpg-query, until V8 has tiered its parser up (it does so in the background, once). */
async function warmUpParser(session: Session): Promise<void> {
  note(`warming up the read-only parser with ${WARM_UP_QUERIES} small Queries`);
  for (let i = 0; i < WARM_UP_QUERIES; i++) await query(session, `select * from ${TABLE} where id = ${i + 1}`, 1);
  await new Promise((resolve) => setTimeout(resolve, 3000)); // the background compilation's end
}

/** A Query over REST; throws unless it answers `rows` rows. */
async function query(session: Session, statement: string, rows: number): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${session.server.port}/v1/sql:query`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ name: session.target.name, statement, limit: rows }),
  });
  const answer = (await res.json()) as { results?: { rows?: unknown[] }[] };
  if (answer.results?.[0]?.rows?.length !== rows) throw new Error(`query: expected ${rows} rows, got HTTP ${res.status} ${JSON.stringify(answer).slice(0, 200)}`);
}

/** Downloads an export of the table and counts its bytes as they stream. */
async function download(session: Session, request: { format: string; limit: number }): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${session.server.port}/v1/sql:export`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ name: session.target.name, statement: EXPORT_STATEMENT, ...request }),
  });
  if (!res.ok || !res.body) throw new Error(`export failed: HTTP ${res.status} ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.byteLength;
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

async function measureQuery(context: BenchContext, session: Session): Promise<Row> {
  const statement = `select * from ${TABLE} order by id limit ${QUERY_ROWS}`;
  const body = JSON.stringify({ name: session.target.name, statement, limit: QUERY_ROWS });
  const url = `http://127.0.0.1:${session.server.port}/v1/sql:query`;
  await query(session, statement, QUERY_ROWS);
  const settings = { connections: 1, warmupS: context.warmupS, durationS: context.durationS };
  note(`measuring Query of ${QUERY_ROWS} rows, one connection`);
  const result = await http1Load({ url, method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${session.token}` }, body }, { ...settings, serverPid: session.server.pid });
  note(describeLoad("query", result));
  const bare = await pgLoad(session.target.url, { text: statement, values: [] }, settings);
  note(describeLoad("query, bare pg client", bare));
  return {
    name: "sql.query",
    value: round(result.p50Ms),
    unit: "ms p50",
    baseline: round(bare.p50Ms),
    ratio: ratioOf(bare.p50Ms, result.p50Ms),
    targets: TARGETS.query,
    detail: { p50Ms: result.p50Ms, p99Ms: result.p99Ms, baselineP50Ms: bare.p50Ms, baselineP99Ms: bare.p99Ms, serverCpu: result.serverCpu },
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
