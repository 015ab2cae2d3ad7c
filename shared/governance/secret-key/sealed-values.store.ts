// Where sealed credentials are stored, and their re-sealing under a new key
// (contract §9.4). A column holds either one sealed string (text) or a JSON
// document with sealed strings anywhere inside (jsonb); a new table with
// credentials is added to SEALED_COLUMNS.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { isSealed } from "../../platform/index.ts";

interface SealedColumn {
  table: string;
  key: string;
  column: string;
  kind: "text" | "jsonb";
}

const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: "setting", key: "name", column: "value", kind: "jsonb" },
  { table: "principal", key: "id", column: "mfa_secret", kind: "text" },
  { table: "principal", key: "id", column: "mfa_temp_secret", kind: "text" },
  { table: "identity_provider", key: "id", column: "config", kind: "jsonb" },
  { table: "instance", key: "id", column: "data_sources", kind: "jsonb" },
  { table: "project_webhook", key: "id", column: "url", kind: "text" },
  { table: "project_webhook", key: "id", column: "secret", kind: "text" },
];

/** A row's key (as text) and the column that may hold sealed values. */
const sealedColumnRow = z.object({ key: z.unknown(), value: z.unknown() });

/** Replaces every sealed value with `reseal(value)`; answers how many were re-sealed. */
export async function resealStoredSecrets(tx: CommonQueryMethods, reseal: (sealed: string) => string): Promise<number> {
  let count = 0;
  const convert = (value: unknown): unknown => {
    if (isSealed(value)) return count++, reseal(value);
    if (Array.isArray(value)) return value.map(convert);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)]));
    return value;
  };
  for (const { table, key, column, kind } of SEALED_COLUMNS) {
    const rows = await tx.any(sql.type(sealedColumnRow)`
      select ${sql.identifier([key])}::text as key, ${sql.identifier([column])} as value from ${sql.identifier([table])}
      where ${sql.identifier([column])} is not null for update`);
    for (const row of rows) {
      const before = count;
      const value = convert(row.value);
      if (count === before) continue;
      const stored = kind === "jsonb" ? sql.jsonb(value as never) : (value as string);
      await tx.query(sql.unsafe`
        update ${sql.identifier([table])} set ${sql.identifier([column])} = ${stored}
        where ${sql.identifier([key])}::text = ${String(row.key)}`);
    }
  }
  return count;
}
