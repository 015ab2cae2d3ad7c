// How an export discloses its masking (contract §19.2): a file has no place
// for it that every format shares (a note row would corrupt CSV and SQL), so
// the call's response header X-Svc-Masked-Columns carries it — an HTTP header
// over REST and Connect, metadata over gRPC — sent with the file's first
// bytes. Its value is JSON in ASCII (other characters as \u escapes): one
// entry per reason, with the 0-based positions of the file's columns it
// masks, as Query's per-column `masked` would say; absent when nothing is
// masked. Grouping keeps it short when a wide untraced SELECT masks every
// column for one reason.
import type { MaskingReason } from "../../shared/sql-editor/index.ts";

export const MASKED_COLUMNS_HEADER = "X-Svc-Masked-Columns";

/** The header's value, or undefined when no column is masked. */
export function maskedColumnsHeader(reasons: readonly MaskingReason[]): string | undefined {
  const groups = new Map<string, { columns: number[]; semanticType: string; reason: string }>();
  reasons.forEach(({ semanticType, reason }, column) => {
    if (!reason) return;
    const key = JSON.stringify([semanticType, reason]);
    const group = groups.get(key) ?? groups.set(key, { columns: [], semanticType, reason }).get(key)!;
    group.columns.push(column);
  });
  if (groups.size === 0) return undefined;
  return JSON.stringify([...groups.values()]).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
