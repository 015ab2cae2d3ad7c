// Audit search and export on 1,000,000 records (contract §8.3), 4% of them
// with large requests and responses as the audit bounds store them (a cut
// 1 MiB script, or a release as large as a record keeps whole; see
// audit-log-seed.ts), through the real server over HTTP/1.1, each against the
// same query sent by a bare pg client in the same run:
//   search — the first page (50 records) of two filtered searches,
//     GET /v1/auditLogs?filter=…: an actor + action filter and a resource
//     prefix. Latency p50/p99 under light concurrency (at most 4 connections;
//     target p99 ≤ 50 ms); the baseline runs the store's SQL for that page
//     with as many pg clients.
//   export — POST /v1/auditLogs:export of every record as CSV and as NDJSON,
//     one download read to its end: records/s (target ≥ 50,000/s) and the
//     growth of the server's resident memory while it streams (target
//     ≤ 100 MB); the baseline reads the same rows, in the same order, from a
//     server-side cursor with a bare pg client (no encoding, no HTTP).
// The server runs with --rate-limit-per-user 0: one auditor makes every call.
import pg from "pg";
import { runChildScript, startChildServer, type ChildServer } from "../harness/child-server.ts";
import { stderrLogger } from "../harness/database.ts";
import { http1Load } from "../harness/http1-load.ts";
import { describeLoad, type LoadResult } from "../harness/load-result.ts";
import { pgLoad, type PgQuery } from "../harness/pg-load.ts";
import { withRssSampling } from "../harness/rss.ts";
import { note, ratioOf, type BenchContext, type Figure, type Row, type Target } from "../harness/types.ts";
import { AUDIT_COLUMNS, AUDITOR, createAuditor, NEWEST_FIRST, seedAuditRecords } from "./audit-log-seed.ts";

const RECORDS = 1_000_000;
const SEARCH_CONNECTIONS = 4;
/** A search row's value is its p99 (ms). */
const SEARCH_TARGET: Target = { on: "value", max: 50 };
const EXPORT_RATE_TARGET: Target = { on: "value", min: 50_000 };
const EXPORT_RSS_TARGET: Target = { on: "value", max: 100 };

/** What bench/audit-cursor-read.ts reports. */
interface CursorRead {
  records: number;
  seconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

interface SearchCase {
  name: string;
  filter: string;
  /** The page's SQL as the store sends it: one record more than the page. */
  sql: PgQuery;
}

const SEARCHES: SearchCase[] = [
  {
    name: "search_actor_action",
    filter: "actor:user42 AND action:bb.rollouts.create",
    sql: { text: `select ${AUDIT_COLUMNS} from audit_log where actor = $1 and action = $2 ${NEWEST_FIRST} limit 51`, values: ["users/user42", "bb.rollouts.create"] },
  },
  {
    name: "search_resource_prefix",
    filter: "resource:projects/p42/",
    sql: {
      text: `select ${AUDIT_COLUMNS} from audit_log where audit_resource_root(resource) = $1 and resource <> $1 ${NEWEST_FIRST} limit 51`,
      values: ["projects/p42"],
    },
  },
];

export const auditLogFigure: Figure = {
  name: "audit-log",
  description: "audit search (first filtered page, p99) and export (records/s, server RSS growth) over REST on 1M records vs a bare pg client",
  async run(context: BenchContext): Promise<Row[]> {
    note(`writing ${RECORDS.toLocaleString("en")} audit records`);
    const started = performance.now();
    await seedAuditRecords(context.databaseUrl, RECORDS);
    await createAuditor(context.databaseUrl, stderrLogger());
    note(`records written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    let server: ChildServer | undefined;
    try {
      server = await startChildServer("server-process.ts", { BENCH_PG_URL: context.databaseUrl, BENCH_SERVER_FLAGS: "--rate-limit-per-user 0" }, context.cpuProfDir);
      const token = await signIn(server.port);
      const rows: Row[] = [];
      for (const search of SEARCHES) rows.push(await measureSearch(context, server, token, search));
      await warmUpExport(context, server.port, token);
      for (const format of ["CSV", "NDJSON"] as const) rows.push(...(await measureExport(context, server, token, format)));
      return rows;
    } finally {
      await server?.stop();
    }
  },
};

async function signIn(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ loginId: AUDITOR.loginId, password: AUDITOR.password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function measureSearch(context: BenchContext, server: ChildServer, token: string, search: SearchCase): Promise<Row> {
  const url = `http://127.0.0.1:${server.port}/v1/auditLogs?filter=${encodeURIComponent(search.filter)}`;
  const headers = { authorization: `Bearer ${token}` };
  const check = await fetch(url, { headers });
  const page = (await check.json()) as { auditLogs?: unknown[] };
  const found = page.auditLogs?.length ?? 0;
  if (!check.ok || found === 0) throw new Error(`${search.name}: expected records, got HTTP ${check.status}`);
  note(`${search.name}: the first page holds ${found} records`);
  const settings = { connections: Math.min(context.connections, SEARCH_CONNECTIONS), warmupS: context.warmupS, durationS: context.durationS };
  note(`measuring ${search.name} (${search.filter}), ${settings.connections} connections`);
  const result = await http1Load({ url, method: "GET", headers }, { ...settings, serverPid: server.pid });
  note(describeLoad(search.name, result));
  const bare = await pgLoad(context.databaseUrl, search.sql, settings);
  note(describeLoad(`${search.name}, bare pg client`, bare));
  return searchRow(search.name, result, bare);
}

function searchRow(name: string, result: LoadResult, bare: LoadResult): Row {
  const failures = result.failed + bare.failed;
  return {
    name: `audit_log.${name}`,
    value: round(result.p99Ms, 2),
    unit: "ms p99",
    baseline: round(bare.p99Ms, 2),
    ratio: ratioOf(bare.p99Ms, result.p99Ms),
    targets: [SEARCH_TARGET],
    detail: {
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      baselineP50Ms: bare.p50Ms,
      baselineP99Ms: bare.p99Ms,
      serverCpu: result.serverCpu,
      generatorCpu: result.generatorCpu,
      note: [
        `${Math.round(result.rps)} req/s vs ${Math.round(bare.rps)} bare`,
        failures ? `${result.failed} failed, ${bare.failed} failed in baseline` : undefined,
      ].filter(Boolean).join("; "),
    },
  };
}

/** Two rows: the records/s, and the growth of the server's RSS while it streamed. */
async function measureExport(context: BenchContext, server: ChildServer, token: string, format: "CSV" | "NDJSON"): Promise<Row[]> {
  // The seeded records and those the run itself wrote (sign-in, earlier exports).
  const expected = await countRecords(context.databaseUrl);
  note(`exporting every record (${expected}) as ${format}`);
  const exported = await withRssSampling(server.pid, () => timed(() => downloadLines(server.port, token, format)));
  const lines = exported.result.value;
  const records = format === "CSV" ? lines - 1 : lines; // the CSV header row
  if (records !== expected) throw new Error(`${format} export: expected ${expected} records, counted ${records}`);
  const rate = records / exported.result.seconds;
  const growthMb = (exported.peakMb ?? 0) - (exported.beforeMb ?? 0);
  note(`${format} export: ${Math.round(rate)} records/s, ${exported.result.seconds.toFixed(2)} s, server RSS ${exported.beforeMb?.toFixed(0)} → peak ${exported.peakMb?.toFixed(0)} MiB`);
  const bare = await runChildScript<CursorRead>("audit-cursor-read.ts", { BENCH_PG_URL: context.databaseUrl });
  // It also reads the export's own audit record, written after the count.
  if (bare.records < expected) throw new Error(`bare cursor read: expected ${expected} records or more, read ${bare.records}`);
  const bareRate = bare.records / bare.seconds;
  const bareGrowthMb = bare.rssPeakMb - bare.rssBeforeMb;
  note(`bare pg cursor: ${Math.round(bareRate)} records/s, ${bare.seconds.toFixed(2)} s, RSS ${bare.rssBeforeMb.toFixed(0)} → peak ${bare.rssPeakMb.toFixed(0)} MiB`);
  const name = `audit_log.export_${format.toLowerCase()}`;
  return [
    {
      name,
      value: Math.round(rate),
      unit: "rec/s",
      baseline: Math.round(bareRate),
      ratio: ratioOf(rate, bareRate),
      targets: [EXPORT_RATE_TARGET],
    },
    {
      name: `${name}_rss_growth`,
      value: Math.round(growthMb),
      unit: "MiB",
      baseline: Math.round(bareGrowthMb),
      ratio: ratioOf(bareGrowthMb, growthMb),
      targets: [EXPORT_RSS_TARGET],
      detail: { note: `server RSS ${exported.beforeMb?.toFixed(0)} → peak ${exported.peakMb?.toFixed(0)} MiB while streaming; baseline: the bare cursor read's growth` },
    },
  ];
}

/**
 * The warm-up's seconds of an export, then the client leaves: V8 sizes its
 * heap to the export's allocation rate on the first one (a bare cursor read
 * grows as much, see bench/README.md), so the measured exports show what an
 * export holds, not that one-time growth.
 */
async function warmUpExport(context: BenchContext, port: number, token: string): Promise<void> {
  if (context.warmupS === 0) return;
  note(`warming up the export for ${context.warmupS} s`);
  const before = await countRecords(context.databaseUrl);
  try {
    await downloadLines(port, token, "NDJSON", AbortSignal.timeout(context.warmupS * 1000));
  } catch (error) {
    if ((error as Error).name !== "TimeoutError") throw error;
  }
  // The cut export's own audit record is written when the server sees the client leave; the measured exports count it.
  for (const started = performance.now(); (await countRecords(context.databaseUrl)) === before; ) {
    if (performance.now() - started > 10_000) throw new Error("the warm-up export left no audit record");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Downloads the export and counts its line ends, reading the body as it streams. */
async function downloadLines(port: number, token: string, format: string, signal?: AbortSignal): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/auditLogs:export`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ format }),
    signal,
  });
  if (!res.ok || !res.body) throw new Error(`export failed: HTTP ${res.status} ${await res.text()}`);
  let lines = 0;
  for await (const chunk of res.body) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lines++;
  }
  return lines;
}

async function countRecords(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query("select count(*) as n from audit_log")).rows[0].n);
  } finally {
    await client.end();
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - started) / 1000 };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
