// Listing a project's releases (contract §13.1, §2.4): filter fields title
// (substring) and create_time, newest first.
import type { CommonQueryMethods } from "slonik";
import { type FilterFields, keysetPage, type Page, type PageRequest, parseFilter } from "../../platform/index.ts";
import { listReleases, type ReleaseRow } from "./release.store.ts";

const FILTER_FIELDS: FilterFields = {
  title: { kind: "substring" },
  create_time: { kind: "time" },
};

export interface ReleaseListRequest extends PageRequest {
  projectId: string;
  filter: string;
  showDeleted: boolean;
}

export async function listReleasePage(db: CommonQueryMethods, request: ReleaseListRequest): Promise<Page<ReleaseRow>> {
  const terms = parseFilter(request.filter, FILTER_FIELDS);
  const query = JSON.stringify({ project: request.projectId, terms, showDeleted: request.showDeleted });
  return keysetPage(
    request,
    query,
    ["time", "text"],
    (after, limit) => listReleases(db, { projectId: request.projectId, terms, showDeleted: request.showDeleted, after, limit }),
    (row) => [row.pageTime, row.id],
  );
}
