// Execute's statements ⇄ svc.v1 ExecutedStatement (contract §14.1).
import { create } from "@bufbuild/protobuf";
import { type Duration, DurationSchema } from "@bufbuild/protobuf/wkt";
import { type ExecutedStatement, ExecutedStatementSchema } from "../../shared/gen/svc/v1/sql_service_pb.js";
import type { ExecutedStatement as StatementRun } from "../../shared/sql-editor/index.ts";

export function toExecutedStatement(run: StatementRun): ExecutedStatement {
  return create(ExecutedStatementSchema, {
    statement: run.statement,
    rowsAffected: BigInt(run.rowsAffected),
    duration: durationOfMs(run.durationMs),
    error: run.error,
  });
}

/** A duration measured in (fractional) milliseconds, to the microsecond. */
export function durationOfMs(ms: number): Duration {
  const micros = Math.max(0, Math.round(ms * 1000));
  return create(DurationSchema, { seconds: BigInt(Math.floor(micros / 1_000_000)), nanos: (micros % 1_000_000) * 1000 });
}
