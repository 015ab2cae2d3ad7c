// A cell's text as a mask reads it.
import { type Cell, Timestamp } from "../cells.ts";

export function cellText(cell: NonNullable<Cell>): string {
  if (cell instanceof Timestamp) return cell.text;
  if (cell instanceof Uint8Array) return Buffer.from(cell).toString("hex");
  return String(cell);
}
