// Listing issues (contract §2.4): filter terms as SQL, newest first with
// keyset paging, per project or across a set of projects.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { afterNewest, type FilterTerm, newestFirst, type PageKey, pageTimeColumn, withPageTime } from "../../platform/index.ts";
import { issueColumns, issueRow, type IssueRow } from "./issue.store.ts";

/** The roles a user holds: at workspace scope, and per project. */
export interface HeldRoles {
  workspace: readonly string[];
  projects: ReadonlyMap<string, readonly string[]>;
}

export interface IssueListQuery {
  /** The projects listed; undefined for every project. */
  projectIds: readonly string[] | undefined;
  terms: readonly FilterTerm[];
  /** For `approver` terms: the roles of each user named (users/<id>). */
  approverRoles: ReadonlyMap<string, HeldRoles>;
  after: PageKey | undefined;
  limit: number;
}

const listedIssue = withPageTime(issueRow);

export async function listIssues(db: CommonQueryMethods, query: IssueListQuery): Promise<readonly (IssueRow & { pageTime: string })[]> {
  const conditions = query.terms.map((term) => condition(term, query.approverRoles));
  if (query.projectIds) conditions.push(sql.fragment`issue.project_id = any(${sql.array([...query.projectIds], "text")})`);
  if (query.after) conditions.push(afterNewest(query.after));
  const where = conditions.length > 0 ? sql.fragment`where ${sql.join(conditions, sql.fragment` and `)}` : sql.fragment``;
  return db.any(sql.type(listedIssue)`
    select ${issueColumns}, ${pageTimeColumn} from issue ${where} ${newestFirst} limit ${query.limit}`);
}

const COMPARISON: Record<string, FragmentSqlToken> = {
  "=": sql.fragment`=`, ":": sql.fragment`=`, "!=": sql.fragment`<>`,
  ">": sql.fragment`>`, ">=": sql.fragment`>=`, "<": sql.fragment`<`, "<=": sql.fragment`<=`,
};

function condition(term: FilterTerm, approverRoles: ReadonlyMap<string, HeldRoles>): FragmentSqlToken {
  if (term.field === "create_time" || term.field === "update_time") {
    const column = term.field === "create_time" ? sql.fragment`issue.create_time` : sql.fragment`issue.update_time`;
    return sql.fragment`${column} ${COMPARISON[term.op]!} ${(term.value as Date).toISOString()}::timestamptz`;
  }
  const value = String(term.value);
  const matches = match(term.field, term.op, value, approverRoles);
  return term.op === "!=" ? sql.fragment`not (${matches})` : matches;
}

function match(field: string, op: FilterTerm["op"], value: string, approverRoles: ReadonlyMap<string, HeldRoles>): FragmentSqlToken {
  switch (field) {
    case "creator":
      return sql.fragment`issue.creator = ${value}`;
    case "project":
      return sql.fragment`issue.project_id = ${value.replace(/^projects\//, "")}`;
    case "plan":
      return planMatch(value);
    case "status":
      return sql.fragment`issue.status = ${value}`;
    case "type":
      return sql.fragment`${value} = 'DATABASE_CHANGE'`;
    case "approval_status":
      return sql.fragment`issue.approval_status = ${value}`;
    case "title":
      return op === ":" ? sql.fragment`strpos(lower(issue.title), ${value.toLowerCase()}) > 0` : sql.fragment`issue.title = ${value}`;
    case "label":
      return sql.fragment`issue.labels @> ${sql.jsonb([value])}`;
    default:
      return awaitingApprover(value, approverRoles.get(value) ?? { workspace: [], projects: new Map() });
  }
}

function planMatch(value: string): FragmentSqlToken {
  const full = /^projects\/([^/]+)\/plans\/([^/]+)$/.exec(value);
  return full ? sql.fragment`(issue.project_id = ${full[1]!} and issue.plan_id = ${full[2]!})` : sql.fragment`issue.plan_id = ${value}`;
}

/** PENDING issues whose current step names a role the user holds there, and which the user has not approved yet. */
function awaitingApprover(user: string, roles: HeldRoles): FragmentSqlToken {
  const stepRoles = sql.fragment`coalesce(issue.approval_template -> 'steps' -> issue.current_step -> 'roles', '[]')`;
  const holds = (held: readonly string[]) => sql.fragment`jsonb_exists_any(${stepRoles}, ${sql.array([...held], "text")})`;
  const scopes = [holds(roles.workspace)];
  for (const [projectId, held] of roles.projects) scopes.push(sql.fragment`(issue.project_id = ${projectId} and ${holds(held)})`);
  return sql.fragment`(issue.status = 'OPEN' and issue.approval_status = 'PENDING' and (${sql.join(scopes, sql.fragment` or `)})
    and not issue.approvers @> ${sql.jsonb([{ principal: user, status: "APPROVED" }])})`;
}
