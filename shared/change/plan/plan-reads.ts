// Reading plans (contract §10.1): one by name, or a project's list (§2.4)
// with filter fields creator (me for the caller), create_time, title
// (substring) and has_rollout, newest first.
import type { CommonQueryMethods } from "slonik";
import { type FilterFields, keysetPage, notFound, type Page, type PageRequest, parseFilter, userFilterValue } from "../../platform/index.ts";
import { planName, type PlanRef } from "./plan-names.ts";
import { findPlan, listPlans, type PlanRow } from "./plan.store.ts";

export async function getPlan(db: CommonQueryMethods, ref: PlanRef): Promise<PlanRow> {
  const plan = await findPlan(db, ref.projectId, ref.id);
  if (!plan) throw notFound(`plan "${planName(ref)}" does not exist`);
  return plan;
}

const FILTER_FIELDS: FilterFields = {
  creator: { kind: "text" },
  create_time: { kind: "time" },
  title: { kind: "substring" },
  has_rollout: { kind: "bool" },
};

export interface PlanListRequest extends PageRequest {
  projectId: string;
  filter: string;
  showDeleted: boolean;
  /** The caller's resource name, which creator:me stands for. */
  caller: string;
}

export async function listPlanPage(db: CommonQueryMethods, request: PlanListRequest): Promise<Page<PlanRow>> {
  const terms = parseFilter(request.filter, FILTER_FIELDS).map((term) =>
    term.field === "creator" ? { ...term, value: userFilterValue(String(term.value), request.caller, "creator") } : term,
  );
  const query = JSON.stringify({ project: request.projectId, terms, showDeleted: request.showDeleted });
  return keysetPage(
    request,
    query,
    ["time", "text"],
    (after, limit) => listPlans(db, { projectId: request.projectId, terms, showDeleted: request.showDeleted, after, limit }),
    (row) => [row.pageTime, row.id],
  );
}
