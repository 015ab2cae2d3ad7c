// Listing projects (contract §9.1, §2.4): filter fields title (substring) and
// state, newest first. A caller without bb.projects.list at workspace scope
// sees only the projects where it has a binding.
import type { CommonQueryMethods } from "slonik";
import { hasPermission, type IamReads, type IamSubject, projectsWithBinding, WORKSPACE } from "../../identity/index.ts";
import { type FilterFields, keysetPage, type Page, type PageRequest, parseFilter } from "../../platform/index.ts";
import { listProjects, type ProjectRow } from "./project.store.ts";

const FILTER_FIELDS: FilterFields = {
  title: { kind: "substring" },
  state: { kind: "enum", values: ["ACTIVE", "DELETED"] },
};

export interface ProjectListRequest extends PageRequest {
  filter: string;
  showDeleted: boolean;
}

export async function listProjectPage(db: CommonQueryMethods, iam: IamReads, caller: IamSubject, request: ProjectListRequest): Promise<Page<ProjectRow>> {
  const terms = parseFilter(request.filter, FILTER_FIELDS);
  const only = (await hasPermission(iam, caller, "bb.projects.list", WORKSPACE)) ? undefined : await projectsWithBinding(iam, caller);
  const query = JSON.stringify({ filter: request.filter, showDeleted: request.showDeleted, only });
  return keysetPage(
    request,
    query,
    ["time", "text"],
    (after, limit) => listProjects(db, { terms, showDeleted: request.showDeleted, only, after, limit }),
    (row) => [row.pageTime, row.id],
  );
}
