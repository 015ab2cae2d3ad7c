// Listing a project's plans (contract §10.1, §2.4): filter fields creator
// (me for the caller), create_time, title (substring) and has_rollout, newest
// first.
import type { CommonQueryMethods } from "slonik";
import { parseFilter, type FilterFields } from "../../platform/list/filter.ts";
import { keysetPage, type Page, type PageRequest } from "../../platform/list/page.ts";
import { userFilterValue } from "../../platform/list/user-filter-value.ts";
import { listPlans, type PlanRow } from "./plan.store.ts";

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
    (after, limit) => listPlans(db, { projectId: request.projectId, terms, showDeleted: request.showDeleted, after, limit }),
    (row) => [row.pageTime, row.id],
  );
}
