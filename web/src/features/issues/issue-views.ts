// The issue lists a user works from (contract §2.4 filter fields): their own,
// those waiting for their approval, every open one, every one; across the
// workspace or of one project. A view lives in the address, so it can be
// bookmarked and shared.
import { paths } from "../../routes/paths.ts";

export const ISSUE_VIEWS = [
  { id: "approval", label: "Waiting for my approval", filter: "approver = me AND status = OPEN" },
  { id: "mine", label: "Created by me", filter: "creator = me" },
  { id: "open", label: "All open", filter: "status = OPEN" },
  { id: "all", label: "All", filter: "" },
] as const;

export type IssueViewId = (typeof ISSUE_VIEWS)[number]["id"];

export interface IssueListAddress {
  view: IssueViewId;
  /** A project id, for the list of one project. */
  project?: string;
}

const DEFAULT_VIEW: IssueViewId = "approval";
const PROJECT_ID = /^[a-z][a-z0-9-]{0,62}$/;

export function issueListAddress(search: string): IssueListAddress {
  const query = new URLSearchParams(search);
  const view = ISSUE_VIEWS.find((v) => v.id === query.get("view"))?.id ?? DEFAULT_VIEW;
  const project = query.get("project") ?? "";
  return PROJECT_ID.test(project) ? { view, project } : { view };
}

export function issuesPath({ view = DEFAULT_VIEW, project }: Partial<IssueListAddress>): string {
  const query = new URLSearchParams();
  if (view !== DEFAULT_VIEW) query.set("view", view);
  if (project) query.set("project", project);
  const text = query.toString();
  return text ? `${paths.issues}?${text}` : paths.issues;
}

/** The ListIssues request of the address. */
export function issueListRequest({ view, project }: IssueListAddress): { parent: string; filter: string } {
  const filter = ISSUE_VIEWS.find((v) => v.id === view)?.filter ?? "";
  return { parent: project ? `projects/${project}` : "projects/-", filter };
}
