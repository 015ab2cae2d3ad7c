// What Query keeps of a statement's rows (contract §14.1, §14.4, §18.8): at
// most `limit` rows, and no more bytes over the whole call than
// sql_result_size; the first row beyond either ends the reading, and the
// result is truncated. A row's bytes are its values' sizes: text by length,
// bytes by count, numbers 8, booleans 1.
import type { Cell, Column, Row } from "../cells.ts";
import { Timestamp } from "../cells.ts";
import type { RowSink } from "../session/read-session.ts";

/** The bytes left to the call's results. */
export class ResultBudget {
  private left: number;

  constructor(bytes: number) {
    this.left = bytes;
  }

  /** Takes the row's bytes if they fit. */
  take(row: Row): boolean {
    const bytes = rowBytes(row);
    if (bytes > this.left) return false;
    this.left -= bytes;
    return true;
  }
}

/** A sink keeping the rows within the limit and the budget. */
export class KeptRows implements RowSink {
  kept: Row[] = [];
  described: Column[] = [];
  truncated = false;
  private readonly limit: number;
  private readonly budget: ResultBudget;

  constructor(limit: number, budget: ResultBudget) {
    this.limit = limit;
    this.budget = budget;
  }

  columns(columns: Column[]): void {
    this.described = columns;
  }

  rows(batch: Row[]): boolean {
    for (const row of batch) {
      if (this.kept.length >= this.limit || !this.budget.take(row)) {
        this.truncated = true;
        return false;
      }
      this.kept.push(row);
    }
    return true;
  }
}

function rowBytes(row: Row): number {
  let bytes = 0;
  for (const cell of row) bytes += cellBytes(cell);
  return bytes;
}

function cellBytes(cell: Cell): number {
  if (cell === null) return 0;
  if (typeof cell === "string") return cell.length;
  if (typeof cell === "number") return 8;
  if (typeof cell === "boolean") return 1;
  if (cell instanceof Timestamp) return cell.text.length;
  return cell.byteLength;
}
