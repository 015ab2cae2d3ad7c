// PlanCheckRunService: runs of a plan's checks (contract §10.2).
import { PlanCheckRunService } from "../../shared/gen/svc/v1/plan_check_run_service_pb.js";
import { type Db, invalidArgument, keysetPage, quoted } from "../../shared/platform/index.ts";
import { cancelCheckRun, getCheckRun, getPlan, listRuns, parseCheckRunName, parsePlanName, startCheckRun } from "../../shared/change/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { toPlanCheckRun } from "./plan-check-run-convert.ts";

export interface PlanCheckRunDeps {
  db: Db;
}

export function planCheckRunService(deps: PlanCheckRunDeps) {
  return registration(PlanCheckRunService, {
    async runPlanChecks(req, context) {
      const tx = auditScope(context).tx;
      const plan = await getPlan(tx, parsePlanName(req.name, "name"));
      if (plan.state !== "ACTIVE") throw invalidArgument(`plan ${quoted(req.name)} is deleted`);
      return toPlanCheckRun(await startCheckRun(tx, plan.projectId, plan.id));
    },
    async getPlanCheckRun(req) {
      const { plan, id } = parseCheckRunName(req.name, "name");
      return toPlanCheckRun(await getCheckRun(deps.db, plan.projectId, plan.id, id));
    },
    async listPlanCheckRuns(req) {
      const plan = await getPlan(deps.db, parsePlanName(req.parent, "parent"));
      const page = await keysetPage(
        { pageSize: req.latestOnly ? 1 : req.pageSize, pageToken: req.pageToken },
        JSON.stringify({ parent: req.parent }),
        ["integer"],
        (after, limit) => listRuns(deps.db, plan.projectId, plan.id, Number(after?.[0] ?? 0), limit),
        (run) => [run.id],
      );
      return { planCheckRuns: page.rows.map(toPlanCheckRun), nextPageToken: req.latestOnly ? "" : page.nextPageToken };
    },
    async cancelPlanCheckRun(req, context) {
      const { plan, id } = parseCheckRunName(req.name, "name");
      return toPlanCheckRun(await cancelCheckRun(auditScope(context).tx, plan.projectId, plan.id, id, callerOf(context).name));
    },
  });
}
