// Listing issues (contract §11.1, §2.4) of one project, or across the
// workspace — then only of the projects where the caller holds
// bb.issues.list. Filter fields: creator, project, plan, status, type,
// approval_status, approver (issues waiting at a step the user may approve),
// create_time, update_time, title (substring) and label. Newest first.
import type { CommonQueryMethods } from "slonik";
import { boundRoles, hasPermission, type IamReads, type IamSubject, projectsWithBinding, requirePermission, WORKSPACE } from "../../identity/index.ts";
import { type FilterFields, type FilterTerm, keysetPage, type Page, type PageRequest, parseFilter, userFilterValue } from "../../platform/index.ts";
import { getProject, parseProjectName, projectName } from "../../inventory/index.ts";
import { listIssues, type HeldRoles } from "./issue-list.store.ts";
import type { IssueRow } from "./issue.store.ts";

const FILTER_FIELDS: FilterFields = {
  creator: { kind: "text" },
  project: { kind: "text" },
  plan: { kind: "text" },
  status: { kind: "enum", values: ["OPEN", "DONE", "CANCELED"] },
  type: { kind: "enum", values: ["DATABASE_CHANGE"] },
  approval_status: { kind: "enum", values: ["CHECKING", "PENDING", "APPROVED", "REJECTED", "SKIPPED"] },
  approver: { kind: "text" },
  create_time: { kind: "time" },
  update_time: { kind: "time" },
  title: { kind: "substring" },
  label: { kind: "text", aliases: ["labels"] },
};

const PERMISSION = "bb.issues.list";

export interface IssueListRequest extends PageRequest {
  /** projects/<id>; "" or projects/- for the workspace. */
  parent: string;
  filter: string;
}

export async function listIssuePage(db: CommonQueryMethods, iam: IamReads, caller: IamSubject & { name: string }, request: IssueListRequest): Promise<Page<IssueRow>> {
  const terms = parseFilter(request.filter, FILTER_FIELDS).map((term) =>
    term.field === "creator" || term.field === "approver" ? { ...term, value: userFilterValue(String(term.value), caller.name, term.field) } : term,
  );
  const projectIds = await listedProjects(db, iam, caller, request.parent);
  const approverRoles = await rolesOfApprovers(iam, terms);
  const query = JSON.stringify({ projectIds, terms });
  return keysetPage(
    request,
    query,
    ["time", "integer"],
    (after, limit) => listIssues(db, { projectIds, terms, approverRoles, after, limit }),
    (row) => [row.pageTime, row.issueId],
  );
}

/** The projects the list covers; undefined for all (bb.issues.list at workspace scope). */
async function listedProjects(db: CommonQueryMethods, iam: IamReads, caller: IamSubject, parent: string): Promise<string[] | undefined> {
  if (parent !== "" && parent !== "projects/-") {
    const projectId = parseProjectName(parent, "parent");
    await requirePermission(iam, caller, PERMISSION, projectName(projectId));
    await getProject(db, projectId);
    return [projectId];
  }
  if (await hasPermission(iam, caller, PERMISSION, WORKSPACE)) return undefined;
  const bound = await projectsWithBinding(iam, caller);
  const allowed = await Promise.all(bound.map((id) => hasPermission(iam, caller, PERMISSION, projectName(id))));
  return bound.filter((_, i) => allowed[i]);
}

/** The roles of each user an `approver` term names. */
async function rolesOfApprovers(iam: IamReads, terms: readonly FilterTerm[]): Promise<Map<string, HeldRoles>> {
  const users = [...new Set(terms.filter((t) => t.field === "approver").map((t) => String(t.value)))];
  const entries = await Promise.all(users.map(async (user) => [user, await heldRoles(iam, { loginId: user.slice("users/".length) })] as const));
  return new Map(entries);
}

async function heldRoles(iam: IamReads, subject: IamSubject): Promise<HeldRoles> {
  const workspace = [...(await boundRoles(iam, subject, WORKSPACE))];
  const projects = new Map<string, string[]>();
  for (const id of await projectsWithBinding(iam, subject)) projects.set(id, [...(await boundRoles(iam, subject, projectName(id)))]);
  return { workspace, projects };
}
