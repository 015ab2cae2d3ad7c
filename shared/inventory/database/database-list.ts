// Listing databases (contract §9.5, §2.4): of one instance, of one project,
// or of the workspace, ordered by instance then name. Filter fields: project,
// instance, environment (the effective one), engine, name (substring), label
// (`label:key` has the key, `label:key:value` has it with that value) and
// sync_state. Names may be given in full (projects/p) or as bare ids.
import type { CommonQueryMethods } from "slonik";
import { getInstance, parseInstanceName } from "../instance/instances.ts";
import { type FilterFields, invalidArgument, keysetPage, type Page, type PageRequest, parseFilter, quoted } from "../../platform/index.ts";
import { getProject, parseProjectName } from "../project/projects.ts";
import { databaseConditions, type DatabaseScope } from "./database-filter.store.ts";
import { listDatabases, type DatabaseRow } from "./database.store.ts";

const FILTER_FIELDS: FilterFields = {
  project: { kind: "text" },
  instance: { kind: "text" },
  environment: { kind: "text" },
  engine: { kind: "enum", values: ["POSTGRES", "MYSQL"] },
  name: { kind: "substring" },
  label: { kind: "text", aliases: ["labels"] },
  sync_state: { kind: "enum", values: ["OK", "FAILED"] },
};

export interface DatabaseListRequest extends PageRequest {
  /** instances/<id>, projects/<id>, or "" for the workspace. */
  parent: string;
  filter: string;
  showDeleted: boolean;
}

export async function listDatabasePage(db: CommonQueryMethods, request: DatabaseListRequest): Promise<Page<DatabaseRow>> {
  const conditions = databaseConditions(await parentScope(db, request.parent), parseFilter(request.filter, FILTER_FIELDS));
  const query = JSON.stringify({ parent: request.parent, filter: request.filter, showDeleted: request.showDeleted });
  return keysetPage(
    request,
    query,
    ["text", "text"],
    (after, limit) =>
      listDatabases(db, { conditions, showDeleted: request.showDeleted, after: after && [String(after[0]), String(after[1])], limit }),
    (row) => [row.instanceId, row.name],
  );
}

/** The parent's project or instance; not_found when it names nothing. */
async function parentScope(db: CommonQueryMethods, parent: string): Promise<DatabaseScope> {
  if (parent === "") return {};
  if (parent.startsWith("projects/")) return { projectId: (await getProject(db, parseProjectName(parent, "parent"))).id };
  if (parent.startsWith("instances/")) return { instanceId: (await getInstance(db, parseInstanceName(parent, "parent"))).id };
  throw invalidArgument(`parent: ${quoted(parent)} is not a valid parent; use instances/<instance_id> or projects/<project_id>`);
}
