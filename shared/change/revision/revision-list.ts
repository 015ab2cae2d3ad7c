// Listing a database's revisions (contract §13.2, §2.4): filter fields
// version and create_time, newest first, deleted ones with show_deleted.
import type { CommonQueryMethods } from "slonik";
import { type DatabaseRef, getDatabase } from "../../inventory/index.ts";
import { type FilterFields, invalidArgument, keysetPage, type Page, type PageRequest, parseFilter } from "../../platform/index.ts";
import { listRevisions, type RevisionRow } from "./revision.store.ts";

const FILTER_FIELDS: FilterFields = {
  version: { kind: "text" },
  create_time: { kind: "time" },
};

export interface RevisionListRequest extends PageRequest {
  database: DatabaseRef;
  filter: string;
  showDeleted: boolean;
}

export async function listRevisionPage(db: CommonQueryMethods, request: RevisionListRequest): Promise<Page<RevisionRow>> {
  await getDatabase(db, request.database);
  const terms = parseFilter(request.filter, FILTER_FIELDS);
  const query = JSON.stringify({ database: request.database, terms, showDeleted: request.showDeleted });
  return keysetPage(
    request,
    query,
    ["integer"],
    (after, limit) => listRevisions(db, { database: request.database, terms, showDeleted: request.showDeleted, before: after && revisionId(after[0]), limit }),
    (row) => [row.id],
  );
}

function revisionId(key: string | number | undefined): number {
  if (typeof key !== "number" || !Number.isSafeInteger(key)) throw invalidArgument("page_token is malformed");
  return key;
}
