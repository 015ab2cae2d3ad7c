// A Query result with its columns' masking (contract §19.2): the masker
// rewrites the rows' hidden values before they are converted.
import { create } from "@bufbuild/protobuf";
import { MaskingReasonSchema, type QueryResult } from "../../shared/gen/svc/v1/sql_service_pb.js";
import type { ResultMasker, StatementResult } from "../../shared/sql-editor/index.ts";
import { toQueryResult } from "./sql-query-convert.ts";

export function toMaskedQueryResult(result: StatementResult, masker: ResultMasker | undefined): QueryResult {
  const reasons = masker?.mask(result) ?? [];
  const converted = toQueryResult(result);
  converted.masked = reasons.map((reason) => create(MaskingReasonSchema, reason));
  return converted;
}
