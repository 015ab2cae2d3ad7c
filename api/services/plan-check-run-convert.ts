// Plan check runs ⇄ svc.v1 PlanCheckRun.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  PlanCheckRun_ResultSchema,
  PlanCheckRun_Result_Status,
  PlanCheckRun_Result_Type,
  PlanCheckRun_Status,
  PlanCheckRunSchema,
  type PlanCheckRun,
  type PlanCheckRun_Result,
} from "../../shared/gen/svc/v1/plan_check_run_service_pb.js";
import { type CheckResult, checkRunName, type CheckRunRow, planName } from "../../shared/change/index.ts";

export function toPlanCheckRun(run: CheckRunRow): PlanCheckRun {
  return create(PlanCheckRunSchema, {
    name: checkRunName(run),
    plan: planName({ projectId: run.projectId, id: run.planId }),
    status: PlanCheckRun_Status[run.status],
    createTime: timestampFromDate(run.createTime),
    updateTime: timestampFromDate(run.updateTime),
    results: run.results.map(toCheckResult),
    error: run.error,
  });
}

/** One check result, as plan check runs and release checks report it. */
export function toCheckResult(result: CheckResult): PlanCheckRun_Result {
  return create(PlanCheckRun_ResultSchema, {
    type: PlanCheckRun_Result_Type[result.type],
    target: result.target,
    specId: result.specId,
    status: PlanCheckRun_Result_Status[result.status],
    title: result.title,
    content: result.content,
    code: result.code,
    line: result.line,
    column: result.column,
    summary: result.summary && { sqlTypes: result.summary.sqlTypes, affectedRows: BigInt(result.summary.affectedRows) },
  });
}
