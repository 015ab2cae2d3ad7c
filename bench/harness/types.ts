// The shapes every figure shares: what a figure is, what it is given, and the
// rows it returns. `npm run bench -- --json` prints the five public row
// fields and the targets with their verdicts; `detail` feeds the readable table.

/** One measured figure, compared with a baseline measured in the same run. */
export interface Row {
  name: string;
  value: number;
  unit: string;
  baseline: number;
  ratio: number;
  /** What the row must meet (`npm run bench -- --check` fails on a miss); set in the figure's definition. */
  targets?: readonly Target[];
  detail?: RowDetail;
}

/**
 * A bound on one of a row's numbers: its value (in the row's unit), its
 * ratio (the share of the bare speed), or its p99 latency in ms.
 */
export interface Target {
  on: "value" | "ratio" | "p99";
  min?: number;
  max?: number;
}

export interface RowDetail {
  p50Ms?: number;
  p99Ms?: number;
  baselineP50Ms?: number;
  baselineP99Ms?: number;
  /** Server and load-generator CPU use over the measured window (1 = one core). */
  serverCpu?: number;
  generatorCpu?: number;
  /** Milliseconds of the server's main-thread CPU per answered request, and of the baseline's. */
  mainThreadMs?: number;
  baselineMainThreadMs?: number;
  note?: string;
}

export interface BenchOptions {
  /** Measured seconds per target. */
  durationS: number;
  /** Discarded warm-up seconds per target. */
  warmupS: number;
  /** HTTP/1.1 connections, and concurrent HTTP/2 streams in total. */
  connections: number;
  /** HTTP/2 sessions the concurrent streams are spread over. */
  h2Sessions: number;
  /** Directory for server CPU profiles (node --cpu-prof); undefined = no profiling. */
  cpuProfDir: string | undefined;
}

export interface BenchContext extends BenchOptions {
  /** A migrated database of this run's own, dropped at the end. */
  databaseUrl: string;
}

export interface Figure {
  name: string;
  description: string;
  run(context: BenchContext): Promise<Row[]>;
}

/** value/baseline rounded to 2 decimals; 0 when there is no baseline. */
export function ratioOf(value: number, baseline: number): number {
  return baseline > 0 ? Math.round((value / baseline) * 100) / 100 : 0;
}

/** Progress and diagnostics go to stderr; stdout carries only the result. */
export function note(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
