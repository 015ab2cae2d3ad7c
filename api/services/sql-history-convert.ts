// Query history rows ⇄ svc.v1 QueryHistory (contract §19.1).
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type QueryHistory, QueryHistory_Type, QueryHistorySchema } from "../../shared/gen/svc/v1/sql_service_pb.js";
import { queryHistoryName, type QueryHistoryRow } from "../../shared/sql-editor/index.ts";

export function toQueryHistory(row: QueryHistoryRow): QueryHistory {
  return create(QueryHistorySchema, {
    name: queryHistoryName(row.id),
    creator: row.creator,
    database: row.database,
    statement: row.statement,
    type: QueryHistory_Type[row.type],
    createTime: timestampFromDate(row.createTime),
    durationMs: BigInt(row.durationMs),
    rowCount: BigInt(row.rowCount),
    error: row.error,
  });
}
