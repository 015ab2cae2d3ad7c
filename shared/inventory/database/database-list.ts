// Listing databases (contract §9.5, §2.4): of one instance, of one project,
// or of the workspace, ordered by instance then name. Filter fields: project,
// instance, environment (the effective one), engine, name (substring), label
// (`label:key` has the key, `label:key:value` has it with that value) and
// sync_state. Names may be given in full (projects/p) or as bare ids.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { getInstance, parseInstanceName } from "../instance/instances.ts";
import { parseFilter, type FilterFields, type FilterTerm } from "../../platform/list/filter.ts";
import { keysetPage, type Page, type PageRequest } from "../../platform/list/page.ts";
import { invalidArgument } from "../../platform/errors.ts";
import { getProject, parseProjectName } from "../project/projects.ts";
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
  const conditions = [...(await parentConditions(db, request.parent)), ...parseFilter(request.filter, FILTER_FIELDS).map(condition)];
  const query = JSON.stringify({ parent: request.parent, filter: request.filter, showDeleted: request.showDeleted });
  return keysetPage(
    request,
    query,
    (after, limit) =>
      listDatabases(db, { conditions, showDeleted: request.showDeleted, after: after && [String(after[0]), String(after[1])], limit }),
    (row) => [row.instanceId, row.name],
  );
}

/** The parent's condition; not_found when it names nothing. */
async function parentConditions(db: CommonQueryMethods, parent: string): Promise<FragmentSqlToken[]> {
  if (parent === "") return [];
  if (parent.startsWith("projects/")) {
    const project = await getProject(db, parseProjectName(parent, "parent"));
    return [sql.fragment`d.project_id = ${project.id}`];
  }
  if (parent.startsWith("instances/")) {
    const instance = await getInstance(db, parseInstanceName(parent, "parent"));
    return [sql.fragment`d.instance_id = ${instance.id}`];
  }
  throw invalidArgument(`parent: "${parent}" is not a valid parent; use instances/<instance_id> or projects/<project_id>`);
}

function condition(term: FilterTerm): FragmentSqlToken {
  const value = String(term.value);
  const matches = match(term.field, term.op, value);
  return term.op === "!=" ? sql.fragment`not (${matches})` : matches;
}

function match(field: string, op: FilterTerm["op"], value: string): FragmentSqlToken {
  switch (field) {
    case "project":
      return sql.fragment`d.project_id = ${value.replace(/^projects\//, "")}`;
    case "instance":
      return sql.fragment`d.instance_id = ${value.replace(/^instances\//, "")}`;
    case "environment":
      return sql.fragment`coalesce(d.environment, i.environment) = ${value.replace(/^environments\//, "")}`;
    case "engine":
      return sql.fragment`i.engine = ${value}`;
    case "name":
      return op === ":" ? sql.fragment`strpos(lower(d.name), ${value.toLowerCase()}) > 0` : sql.fragment`d.name = ${value}`;
    case "sync_state":
      return sql.fragment`d.sync_state is not distinct from ${value}`;
    default:
      return labelMatch(value);
  }
}

function labelMatch(value: string): FragmentSqlToken {
  const colon = value.indexOf(":");
  if (colon < 0) return sql.fragment`d.labels ->> ${value} is not null`;
  return sql.fragment`coalesce(d.labels ->> ${value.slice(0, colon)} = ${value.slice(colon + 1)}, false)`;
}
