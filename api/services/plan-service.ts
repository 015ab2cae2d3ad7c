// PlanService: plans of changes (contract §10.1).
import { PlanService } from "../../shared/gen/svc/v1/plan_service_pb.js";
import type { Db } from "../../shared/platform/index.ts";
import {
  createPlan,
  deletePlan,
  getPlan,
  issuesAndRolloutsOfPlans,
  latestRuns,
  listPlanPage,
  parsePlanName,
  type PlanRow,
  updatePlan,
} from "../../shared/change/index.ts";
import { parseProjectName } from "../../shared/inventory/index.ts";
import type { CommonQueryMethods } from "slonik";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { planDraft, toPlan } from "./plan-convert.ts";

export interface PlanDeps {
  db: Db;
}

/** The plans with the status counts of their latest check runs, their issues and rollouts. */
async function withCounts(db: CommonQueryMethods, plans: readonly PlanRow[]) {
  const projectId = plans[0]?.projectId ?? "";
  const ids = plans.map((p) => p.id);
  const runs = await latestRuns(db, projectId, ids);
  const links = await issuesAndRolloutsOfPlans(db, projectId, ids);
  return plans.map((plan) => toPlan(plan, runs.get(plan.id), links.get(plan.id)));
}

export function planService(deps: PlanDeps) {
  return registration(PlanService, {
    async getPlan(req) {
      const [plan] = await withCounts(deps.db, [await getPlan(deps.db, parsePlanName(req.name, "name"))]);
      return plan!;
    },
    async listPlans(req, context) {
      const page = await listPlanPage(deps.db, {
        ...req,
        projectId: parseProjectName(req.parent, "parent"),
        caller: callerOf(context).name,
      });
      return { plans: await withCounts(deps.db, page.rows), nextPageToken: page.nextPageToken };
    },
    async createPlan(req, context) {
      const audit = auditScope(context);
      const plan = await createPlan(audit, {
        projectId: parseProjectName(req.parent, "parent"),
        planId: req.planId,
        requestId: req.requestId,
        creator: callerOf(context).name,
        draft: planDraft(req.plan),
      });
      const [created] = await withCounts(audit.tx, [plan]);
      return created!;
    },
    async updatePlan(req, context) {
      const audit = auditScope(context);
      const plan = await updatePlan(audit.tx, callerOf(context), {
        ref: parsePlanName(req.plan?.name ?? "", "plan.name"),
        draft: planDraft(req.plan),
        paths: req.updateMask?.paths ?? [],
        etag: req.plan?.etag ?? "",
      });
      const [updated] = await withCounts(audit.tx, [plan]);
      return updated!;
    },
    async deletePlan(req, context) {
      await deletePlan(auditScope(context).tx, parsePlanName(req.name, "name"));
      return {};
    },
  });
}
