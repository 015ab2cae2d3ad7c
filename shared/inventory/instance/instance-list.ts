// Listing instances (contract §9.3, §2.4): filter fields engine, environment
// (environments/<id> or the bare id), title (substring) and state; newest
// first.
import type { CommonQueryMethods } from "slonik";
import { type FilterFields, type FilterTerm, keysetPage, type Page, type PageRequest, parseFilter } from "../../platform/index.ts";
import { listInstances, type InstanceRow } from "./instance.store.ts";

const FILTER_FIELDS: FilterFields = {
  engine: { kind: "enum", values: ["POSTGRES", "MYSQL"] },
  environment: { kind: "text" },
  title: { kind: "substring" },
  state: { kind: "enum", values: ["ACTIVE", "DELETED"] },
};

export interface InstanceListRequest extends PageRequest {
  filter: string;
  showDeleted: boolean;
}

export async function listInstancePage(db: CommonQueryMethods, request: InstanceListRequest): Promise<Page<InstanceRow>> {
  const terms = parseFilter(request.filter, FILTER_FIELDS).map(withEnvironmentId);
  const query = JSON.stringify({ filter: request.filter, showDeleted: request.showDeleted });
  return keysetPage(
    request,
    query,
    ["time", "text"],
    (after, limit) => listInstances(db, { terms, showDeleted: request.showDeleted, after, limit }),
    (row) => [row.pageTime, row.id],
  );
}

function withEnvironmentId(term: FilterTerm): FilterTerm {
  if (term.field !== "environment") return term;
  return { ...term, value: String(term.value).replace(/^environments\//, "") };
}
