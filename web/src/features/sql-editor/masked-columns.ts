// A result column's masking (contract §19.2): `masked` holds one entry per
// column, empty for a column shown as is.
import type { QueryResult } from "@gen/svc/v1/sql_service_pb.js";

export function isMasked(result: Pick<QueryResult, "masked">, column: number): boolean {
  const reason = result.masked[column];
  return Boolean(reason && (reason.semanticType || reason.reason));
}

/** The masked columns, each with its semantic type and why. */
export function maskedColumns(result: Pick<QueryResult, "masked" | "columnNames">): { column: string; semanticType: string; reason: string }[] {
  return result.columnNames.flatMap((column, i) => {
    const reason = result.masked[i];
    return isMasked(result, i) && reason ? [{ column, semanticType: reason.semanticType, reason: reason.reason }] : [];
  });
}
