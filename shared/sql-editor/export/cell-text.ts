// How the export files print result cells (contract §18.10), where the
// formats agree: text, numerics and other types as the target printed them,
// timestamps as printed (MySQL TIMESTAMP in UTC), bytes in base64 as the API
// sends them, booleans as true/false, floats in JavaScript's shortest exact
// form (NaN, Infinity, -Infinity).
import { type Cell, type Column, Timestamp } from "../cells.ts";

/** A non-null cell as text. */
export function cellText(cell: Exclude<Cell, null>): string {
  if (typeof cell === "string") return cell;
  if (typeof cell === "number") return String(cell);
  if (typeof cell === "boolean") return cell ? "true" : "false";
  if (cell instanceof Timestamp) return cell.text;
  return base64(cell);
}

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/** An int64 cell the target printed as a plain integer (so a format may write it unquoted). */
export function isIntegerText(column: Column, cell: Cell): cell is string {
  return column.kind === "int64" && typeof cell === "string" && /^-?(?:0|[1-9]\d*)$/.test(cell);
}

/**
 * Column names made distinct, for the formats that key values by name (JSON
 * objects, SQL column lists): a repeated name takes the first free suffix
 * _2, _3 … (`select 1 as a, 2 as a` → a, a_2).
 */
export function distinctNames(columns: readonly Column[]): string[] {
  const taken = new Set(columns.map((c) => c.name));
  const seen = new Set<string>();
  return columns.map(({ name }) => {
    if (!seen.has(name)) {
      seen.add(name);
      return name;
    }
    let suffix = 2;
    while (taken.has(`${name}_${suffix}`)) suffix++;
    const unique = `${name}_${suffix}`;
    taken.add(unique);
    return unique;
  });
}
