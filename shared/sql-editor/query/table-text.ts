// A result printed as a text table, as the mysql client prints one (MySQL's
// classic EXPLAIN is a table of rows).
import { type Cell, type Column, type Row, Timestamp } from "../cells.ts";

export function tableText(columns: readonly Column[], rows: readonly Row[]): string {
  const cells = [columns.map((c) => c.name), ...rows.map((row) => row.map(cellText))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  const rule = `+${widths.map((w) => "-".repeat(w + 2)).join("+")}+`;
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(" | ")} |`;
  return [rule, line(cells[0]!), rule, ...cells.slice(1).map(line), rule].join("\n");
}

function cellText(cell: Cell): string {
  if (cell === null) return "NULL";
  if (cell instanceof Timestamp) return cell.text;
  if (cell instanceof Uint8Array) return Buffer.from(cell).toString("hex");
  return String(cell);
}
