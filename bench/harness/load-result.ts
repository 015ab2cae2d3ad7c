// What one load run yields, whichever generator produced it.
import { note, ratioOf, type Row, type Target } from "./types.ts";

export interface LoadResult {
  /** Successful responses per second over the measured window. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  /** Failed requests: transport errors, timeouts, wrong status or wrong protocol status. */
  failed: number;
  /** Cores the server (or the baseline process) used over the window. */
  serverCpu?: number;
  /** Of those, the cores its main thread used: where JavaScript runs, the thread pool's work aside. */
  serverMainThreadCpu?: number;
  generatorCpu?: number;
}

/** A growable list of latencies in ms. */
export class Latencies {
  #values = new Float64Array(1 << 16);
  #length = 0;

  add(ms: number): void {
    if (this.#length === this.#values.length) {
      const bigger = new Float64Array(this.#values.length * 2);
      bigger.set(this.#values);
      this.#values = bigger;
    }
    this.#values[this.#length++] = ms;
  }

  sorted(): Float64Array {
    return this.#values.slice(0, this.#length).sort();
  }
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

/** One line for the progress log. */
export function describeLoad(label: string, r: LoadResult): string {
  const main = r.serverMainThreadCpu === undefined ? "" : ` (main thread ${r.serverMainThreadCpu.toFixed(3)})`;
  const cpu = `server ${r.serverCpu ?? "?"}${main} / generator ${r.generatorCpu ?? "?"} cores`;
  return `${label}: ${Math.round(r.rps)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, ${r.ok} ok, ${r.failed} failed, CPU ${cpu}`;
}

/**
 * Runs of the same target (e.g. a baseline measured before, between and after
 * the runs it is compared with) as one: means of rates, latencies and CPU;
 * `drift` is the spread of their rates over the mean.
 */
export function meanLoad(...runs: LoadResult[]): LoadResult & { drift: number } {
  const mean = (values: (number | undefined)[]) => (values.some((v) => v === undefined) ? undefined : values.reduce((sum: number, v) => sum + v!, 0) / values.length);
  const rates = runs.map((r) => r.rps);
  const rps = mean(rates)!;
  return {
    rps,
    p50Ms: mean(runs.map((r) => r.p50Ms))!,
    p99Ms: mean(runs.map((r) => r.p99Ms))!,
    ok: runs.reduce((sum, r) => sum + r.ok, 0),
    failed: runs.reduce((sum, r) => sum + r.failed, 0),
    serverCpu: mean(runs.map((r) => r.serverCpu)),
    serverMainThreadCpu: mean(runs.map((r) => r.serverMainThreadCpu)),
    generatorCpu: mean(runs.map((r) => r.generatorCpu)),
    drift: rps > 0 ? (Math.max(...rates) - Math.min(...rates)) / rps : 0,
  };
}

/** A req/s row against a bare baseline's load, with both runs' latencies and CPU, and any failures in its note. */
export function throughputRow(name: string, result: LoadResult, baseline: LoadResult, target: Target, remark?: string): Row {
  const failures = result.failed + baseline.failed;
  return {
    name,
    value: Math.round(result.rps),
    unit: "req/s",
    baseline: Math.round(baseline.rps),
    ratio: ratioOf(result.rps, baseline.rps),
    targets: [target],
    detail: {
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      baselineP50Ms: baseline.p50Ms,
      baselineP99Ms: baseline.p99Ms,
      serverCpu: result.serverCpu,
      generatorCpu: result.generatorCpu,
      note: [remark, failures ? `${result.failed} failed, ${baseline.failed} failed in baseline` : undefined].filter(Boolean).join("; ") || undefined,
    },
  };
}

/** A target to load for a given number of measured seconds, named for the progress log. */
export interface LoadTarget {
  label: string;
  run(durationS: number): Promise<LoadResult>;
}

/**
 * A baseline and the targets compared with it, measured in rounds that
 * alternate them, the baseline first and last (bare, a, b, bare, a, b, bare),
 * each run `durationS / rounds` long; each side's runs are averaged. A change
 * in the machine's speed during the figure then falls on both sides.
 */
export async function alternateLoads(rounds: number, durationS: number, baseline: LoadTarget, targets: readonly LoadTarget[]) {
  const measured = async (target: LoadTarget) => {
    note(`measuring ${target.label}`);
    const result = await target.run(durationS / rounds);
    note(describeLoad(target.label, result));
    return result;
  };
  const baselineRuns = [await measured(baseline)];
  const targetRuns = targets.map((): LoadResult[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) targetRuns[i]!.push(await measured(target));
    baselineRuns.push(await measured(baseline));
  }
  return { baseline: meanLoad(...baselineRuns), targets: targetRuns.map((runs) => meanLoad(...runs)) };
}
