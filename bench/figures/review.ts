// SQL review (contract §10.3 STATEMENT_ADVISE) of a 2 MiB script (about
// 10,000 statements, DDL and DML) and of a 100-statement script, per engine,
// against the engine's raw parser alone on the same script, in one run.
// Targets (absolute, p50): 2 MiB ≤ 1 s, 100 statements ≤ 50 ms.
//   - The measurements run in bench/review-process.ts, a child process on
//     every core (the review spreads a large MySQL script over worker threads,
//     as in the worker process that runs plan checks); this process is pinned
//     off the server core, so the child is started with all cores again.
//   - value: review p50 in ms; baseline: raw parser p50 in ms (one thread);
//     ratio: baseline / value, the share of the bare parser's speed the
//     review keeps (above 1 when the worker threads outrun one thread).
import { spawn } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { percentile } from "../harness/load-result.ts";
import type { ReviewCaseResult } from "../review-process.ts";
import { note, ratioOf, type BenchContext, type Figure, type Row, type Target } from "../harness/types.ts";

/** The review's p50 (the row's value, ms) per script size. */
const TARGETS: Record<string, Target> = { "2mib": { on: "value", max: 1000 }, "100": { on: "value", max: 50 } };

export const reviewFigure: Figure = {
  name: "review",
  description: "SQL review of a 2 MiB and a 100-statement script per engine vs the raw parser alone on the same script",
  async run(context: BenchContext): Promise<Row[]> {
    note("measuring review and raw parser (bench/review-process.ts, all cores)");
    const results = await runOnAllCores({ BENCH_WARMUP_S: String(context.warmupS), BENCH_DURATION_S: String(context.durationS) });
    return results.map(row);
  },
};

function row(result: ReviewCaseResult): Row {
  const review = sorted(result.reviewMs);
  const parser = sorted(result.parserMs);
  const p50 = percentile(review, 50);
  const baseline = percentile(parser, 50);
  const advice = Object.entries(result.advice)
    .map(([code, count]) => `${count} ${code}`)
    .join(", ");
  note(`${result.name}: review p50 ${p50.toFixed(1)} ms, raw parser p50 ${baseline.toFixed(1)} ms (${result.reviewMs.length} runs); advice: ${advice}`);
  return {
    name: `review.${result.name}`,
    value: round1(p50),
    unit: "ms",
    baseline: round1(baseline),
    ratio: ratioOf(baseline, p50),
    targets: [TARGETS[result.name.split("_")[1]!]!],
    detail: {
      p50Ms: p50,
      p99Ms: percentile(review, 99),
      baselineP50Ms: baseline,
      baselineP99Ms: percentile(parser, 99),
      note: `${result.statements} statements, ${result.bytes} bytes; ratio = parser/review`,
    },
  };
}

/** Runs bench/review-process.ts with every core available (taskset when present) and answers its JSON. */
async function runOnAllCores(env: Record<string, string>): Promise<ReviewCaseResult[]> {
  const script = fileURLToPath(new URL("../review-process.ts", import.meta.url));
  const spawnWith = (command: string, args: string[]) => spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  let child = spawnWith("taskset", ["-c", `0-${cpus().length - 1}`, process.execPath, script]);
  const failedToStart = await new Promise<boolean>((resolve) => {
    child.once("spawn", () => resolve(false));
    child.once("error", () => resolve(true));
  });
  if (failedToStart) child = spawnWith(process.execPath, [script]);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`review-process.ts exited with code ${code}`);
  return JSON.parse(output.trim().split("\n").at(-1) ?? "[]") as ReviewCaseResult[];
}

function sorted(values: number[]): Float64Array {
  return Float64Array.from(values).sort();
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
