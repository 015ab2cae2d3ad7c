// Command line of `npm run bench`: figure names as positionals, flags over
// BENCH_* environment variables over defaults.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { BenchOptions } from "./types.ts";

export interface CommandLine {
  figures: string[];
  json: boolean;
  list: boolean;
  /** Exit 1 when a row misses one of its targets. */
  check: boolean;
  options: BenchOptions;
}

export const USAGE = `usage: npm run bench -- [figure...] [--json] [--list] [--check]
  --check            exit 1 when a figure misses one of its targets (listed on stderr)
  --duration SEC     measured seconds per target (BENCH_DURATION, default 8)
  --warmup SEC       discarded warm-up seconds per target (BENCH_WARMUP, default 3)
  --connections N    HTTP/1.1 connections / total HTTP/2 streams (BENCH_CONNECTIONS, default 50)
  --h2-sessions N    HTTP/2 sessions the streams are spread over (BENCH_H2_SESSIONS, default 5)
  --cpu-prof         write server CPU profiles (node --cpu-prof; BENCH_CPU_PROF=1) to a temp dir, or to
  --cpu-prof-dir DIR (BENCH_CPU_PROF_DIR); profiled runs are slower: for diagnosis only
PG_URL selects a PostgreSQL server (a database svc_bench_<pid> is created and dropped); else an embedded one.`;

export function parseCommandLine(argv: readonly string[], env: Record<string, string | undefined>): CommandLine {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: "boolean" },
      list: { type: "boolean" },
      check: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      "h2-sessions": { type: "string" },
      "cpu-prof": { type: "boolean" },
      "cpu-prof-dir": { type: "string" },
    },
  });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(0);
  }
  const cpuProfDir = values["cpu-prof-dir"] ?? env.BENCH_CPU_PROF_DIR;
  const cpuProf = values["cpu-prof"] === true || env.BENCH_CPU_PROF === "1" || cpuProfDir !== undefined;
  return {
    figures: positionals,
    json: values.json === true,
    list: values.list === true,
    check: values.check === true,
    options: {
      durationS: positive("--duration", values.duration ?? env.BENCH_DURATION, 8),
      warmupS: positive("--warmup", values.warmup ?? env.BENCH_WARMUP, 3, true),
      connections: Math.round(positive("--connections", values.connections ?? env.BENCH_CONNECTIONS, 50)),
      h2Sessions: Math.round(positive("--h2-sessions", values["h2-sessions"] ?? env.BENCH_H2_SESSIONS, 5)),
      cpuProfDir: cpuProf ? cpuProfDir || mkdtempSync(join(tmpdir(), "svc-bench-prof-")) : undefined,
    },
  };
}

function positive(flag: string, raw: string | undefined, fallback: number, zeroAllowed = false): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !zeroAllowed)) {
    throw new Error(`${flag}: expected a ${zeroAllowed ? "non-negative" : "positive"} number, got "${raw}"`);
  }
  return value;
}
