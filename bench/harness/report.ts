// Output: one JSON array of {name, value, unit, baseline, ratio} (with
// targets and met when the row has targets) for --json, else a readable
// table with targets, latencies and CPU use.
import { describeTarget, rowMet, verdicts } from "./targets.ts";
import type { Row } from "./types.ts";

export function toJson(rows: readonly Row[]): string {
  return JSON.stringify(rows.map(jsonRow), null, 2);
}

function jsonRow(row: Row): Record<string, unknown> {
  const { name, value, unit, baseline, ratio } = row;
  const judged = verdicts(row);
  if (judged.length === 0) return { name, value, unit, baseline, ratio };
  const targets = judged.map(({ target, actual, met }) => ({ ...target, actual, met }));
  return { name, value, unit, baseline, ratio, targets, met: rowMet(row) };
}

const COLUMNS: [string, (row: Row) => string][] = [
  ["figure", (r) => r.name],
  ["value", (r) => `${r.value} ${r.unit}`],
  ["baseline", (r) => `${r.baseline} ${r.unit}`],
  ["ratio", (r) => r.ratio.toFixed(2)],
  ["target", targetCell],
  ["p50 ms", (r) => ms(r.detail?.p50Ms)],
  ["p99 ms", (r) => ms(r.detail?.p99Ms)],
  ["base p50", (r) => ms(r.detail?.baselineP50Ms)],
  ["base p99", (r) => ms(r.detail?.baselineP99Ms)],
  ["srv cpu", (r) => cores(r.detail?.serverCpu)],
  ["gen cpu", (r) => cores(r.detail?.generatorCpu)],
  ["note", (r) => r.detail?.note ?? ""],
];

export function toTable(rows: readonly Row[]): string {
  const cells = [COLUMNS.map(([title]) => title), ...rows.map((row) => COLUMNS.map(([, cell]) => cell(row)))];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  const lines = cells.map((line) => line.map((cell, i) => (i === 0 || i === line.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ").trimEnd());
  lines.splice(1, 0, widths.map((w) => "-".repeat(w)).join("  "));
  return `${lines.join("\n")}\n\nsrv/gen cpu: cores used by the server under test / the load generator during the measured window.\n`;
}

function targetCell(row: Row): string {
  const judged = verdicts(row);
  if (judged.length === 0) return "-";
  return judged.map((v) => `${describeTarget(v.target, row.unit)} ${v.met ? "ok" : "MISSED"}`).join("; ");
}

function ms(value: number | undefined): string {
  return value === undefined ? "-" : value.toFixed(value < 10 ? 2 : 1);
}

function cores(value: number | undefined): string {
  return value === undefined ? "-" : value.toFixed(2);
}
