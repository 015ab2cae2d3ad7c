// Query results ⇄ svc.v1 (contract §14.2, §19.2): a row's cells become
// RowValues by their column's kind, and each column says why it was masked.
// Rows are built as messages directly (no create() per value): a result may
// hold a hundred thousand of them.
import { create } from "@bufbuild/protobuf";
import { NullValue } from "@bufbuild/protobuf/wkt";
import { MaskingReasonSchema, type QueryResult, QueryResultSchema, type QueryRow, type RowValue } from "../../shared/gen/svc/v1/sql_service_pb.js";
import { type Cell, type CellKind, type Column, fitsInt64, instantOf, type Row, type StatementResult, Timestamp } from "../../shared/sql-editor/index.ts";
import { durationOfMs } from "./sql-execute-convert.ts";

type Kind = RowValue["kind"];

export function toQueryResult(result: StatementResult): QueryResult {
  const values = result.columns.map((column) => VALUE_OF[column.kind]);
  return create(QueryResultSchema, {
    statement: result.statement,
    columnNames: result.columns.map((c: Column) => c.name),
    columnTypeNames: result.columns.map((c: Column) => c.typeName),
    rows: result.rows.map((row) => toRow(row, values)),
    rowsCount: BigInt(result.rows.length),
    truncated: result.truncated,
    latency: durationOfMs(result.latencyMs),
    error: result.error,
    masked: result.masked.map((reason) => create(MaskingReasonSchema, reason)),
  });
}

function toRow(row: Row, values: readonly ((cell: NonNullable<Cell>) => Kind)[]): QueryRow {
  const out: RowValue[] = new Array(row.length);
  for (let i = 0; i < row.length; i++) {
    const cell = row[i]!;
    out[i] = { $typeName: "svc.v1.RowValue", kind: cell === null ? NULL : values[i]!(cell) };
  }
  return { $typeName: "svc.v1.QueryRow", values: out };
}

const NULL: Kind = { case: "nullValue", value: NullValue.NULL_VALUE };

const VALUE_OF: Record<CellKind, (cell: NonNullable<Cell>) => Kind> = {
  bool: (cell) => ({ case: "boolValue", value: cell as boolean }),
  int64: (cell) => (fitsInt64(cell as string) ? { case: "int64Value", value: cell as string } : { case: "stringValue", value: cell as string }),
  double: (cell) => ({ case: "doubleValue", value: cell as number }),
  text: (cell) => ({ case: "stringValue", value: String(cell) }),
  bytes: (cell) => ({ case: "bytesValue", value: cell as Uint8Array }),
  timestamp: (cell) => timestampValue(cell as Timestamp),
};

/** A timestamp with its instant, or its text when it names none (infinity, a BC date, MySQL's zero date). */
function timestampValue(cell: Timestamp | string): Kind {
  const instant = cell instanceof Timestamp ? instantOf(cell) : undefined;
  if (!instant) return { case: "stringValue", value: String(cell instanceof Timestamp ? cell.text : cell) };
  return {
    case: "timestampValue",
    value: {
      $typeName: "svc.v1.RowValue.Timestamp",
      value: { $typeName: "google.protobuf.Timestamp", seconds: instant.seconds, nanos: instant.nanos },
      offsetSeconds: instant.offsetSeconds,
    },
  };
}
