// What one load run yields, whichever generator produced it.
import { ratioOf, type Row, type Target } from "./types.ts";

export interface LoadResult {
  /** Successful responses per second over the measured window. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  /** Failed requests: transport errors, timeouts, wrong status or wrong protocol status. */
  failed: number;
  serverCpu?: number;
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
  const cpu = `server ${r.serverCpu ?? "?"} / generator ${r.generatorCpu ?? "?"} cores`;
  return `${label}: ${Math.round(r.rps)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, ${r.ok} ok, ${r.failed} failed, CPU ${cpu}`;
}

/**
 * Two runs of the same target (e.g. a baseline measured before and after the
 * targets it is compared with) as one: means of rates, latencies and CPU.
 */
export function meanLoad(a: LoadResult, b: LoadResult): LoadResult & { drift: number } {
  const mean = (x: number | undefined, y: number | undefined) => (x === undefined || y === undefined ? undefined : (x + y) / 2);
  const rps = (a.rps + b.rps) / 2;
  return {
    rps,
    p50Ms: (a.p50Ms + b.p50Ms) / 2,
    p99Ms: (a.p99Ms + b.p99Ms) / 2,
    ok: a.ok + b.ok,
    failed: a.failed + b.failed,
    serverCpu: mean(a.serverCpu, b.serverCpu),
    generatorCpu: mean(a.generatorCpu, b.generatorCpu),
    drift: rps > 0 ? Math.abs(a.rps - b.rps) / rps : 0,
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
