// Rows against their targets: each bound's verdict, for the table, the JSON
// and `--check` (which exits non-zero when a bound is missed).
import type { Row, Target } from "./types.ts";

export interface Verdict {
  target: Target;
  /** The number the bound applies to; undefined when the row lacks it (a missing p99). */
  actual: number | undefined;
  met: boolean;
}

export function verdicts(row: Row): Verdict[] {
  return (row.targets ?? []).map((target) => {
    const actual = measured(row, target.on);
    const met = actual !== undefined && (target.min === undefined || actual >= target.min) && (target.max === undefined || actual <= target.max);
    return { target, actual, met };
  });
}

/** Whether every target of the row is met; undefined for a row without targets. */
export function rowMet(row: Row): boolean | undefined {
  const all = verdicts(row);
  return all.length === 0 ? undefined : all.every((v) => v.met);
}

/** One line per missed bound, e.g. "actuator.rest: ratio 0.42, target ≥ 0.5". */
export function misses(rows: readonly Row[]): string[] {
  return rows.flatMap((row) =>
    verdicts(row)
      .filter((v) => !v.met)
      .map((v) => {
        const actual = v.actual === undefined ? "not measured" : `${number(v.actual)}${unitOf(v.target, row.unit)}`;
        return `${row.name}: ${v.target.on} ${actual}, target ${bounds(v.target, row.unit)}`;
      }),
  );
}

/** "ratio ≥ 0.6", "≤ 25 ms", "p99 ≤ 100 ms", "≥ 50000 rec/s". */
export function describeTarget(target: Target, unit: string): string {
  const what = target.on === "value" ? "" : `${target.on} `;
  return `${what}${bounds(target, unit)}`;
}

function bounds(target: Target, unit: string): string {
  const parts = [target.min === undefined ? undefined : `≥ ${number(target.min)}`, target.max === undefined ? undefined : `≤ ${number(target.max)}`];
  return `${parts.filter(Boolean).join(" and ")}${unitOf(target, unit)}`;
}

function unitOf(target: Target, rowUnit: string): string {
  return target.on === "value" ? ` ${rowUnit}` : target.on === "p99" ? " ms" : "";
}

function measured(row: Row, on: Target["on"]): number | undefined {
  return on === "value" ? row.value : on === "ratio" ? row.ratio : row.detail?.p99Ms;
}

function number(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}
