// The SQL of the database list's conditions (contract §2.4): the parent (a
// project or an instance) and the filter's terms, over instance_database `d`
// joined with its instance `i` (listDatabases' query).
import { sql, type FragmentSqlToken } from "slonik";
import type { FilterTerm } from "../../platform/index.ts";

/** The parent a list is limited to: a project, an instance, or neither (the workspace). */
export interface DatabaseScope {
  projectId?: string;
  instanceId?: string;
}

export function databaseConditions(scope: DatabaseScope, terms: readonly FilterTerm[]): FragmentSqlToken[] {
  const conditions: FragmentSqlToken[] = [];
  if (scope.projectId !== undefined) conditions.push(sql.fragment`d.project_id = ${scope.projectId}`);
  if (scope.instanceId !== undefined) conditions.push(sql.fragment`d.instance_id = ${scope.instanceId}`);
  return [...conditions, ...terms.map(condition)];
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
