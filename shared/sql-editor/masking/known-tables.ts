// The tables a database holds, as its last sync recorded them. A relation a
// statement reads that is not one of them — a view, a table created since the
// sync, another schema's or the system's relation — may show sensitive
// columns under other names, so masking treats every column of it as hidden.
// A database never synced knows no table: every relation is unknown.
import type { CommonQueryMethods } from "slonik";
import { type DatabaseRef, findDatabaseMetadata } from "../../inventory/index.ts";
import type { TableRef } from "./lineage.ts";
import { FULL_MASK } from "./masking-algorithms.ts";
import type { ColumnMask } from "./sensitive-columns.ts";

export type KnownTables = ReadonlySet<string>;

export const UNKNOWN_RELATION: ColumnMask = {
  semanticType: "",
  reason: "read through a view/unknown relation, which may show sensitive columns",
  mask: () => FULL_MASK,
};

/** `schema.table` of every table of the synced metadata; lower-cased when the engine compares names so. */
export async function knownTables(db: CommonQueryMethods, ref: DatabaseRef, caseless: boolean): Promise<KnownTables> {
  const metadata = await findDatabaseMetadata(db, ref);
  const keys = (metadata?.schemas ?? []).flatMap((schema) => schema.tables.map((table) => `${schema.name}.${table.name}`));
  return new Set(caseless ? keys.map((key) => key.toLowerCase()) : keys);
}

export function isKnownTable(table: TableRef, known: KnownTables): boolean {
  return known.has(`${table.schema}.${table.table}`);
}
