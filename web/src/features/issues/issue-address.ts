// The issue page's address and the API names it stands for: the page of
// `projects/<p>/issues/<n>` is `/projects/<p>/issues/<n>`.
import { paths } from "../../routes/paths.ts";

/** The console page of an issue, from its resource name. */
export function issuePagePath(issueName: string): string {
  return `/${issueName}`;
}

/** The issue's resource name from the page's parameters. */
export function issueNameOf(params: { project?: string; issue?: string }): string {
  return `projects/${params.project ?? ""}/issues/${params.issue ?? ""}`;
}

/** The page creating a plan and its issue in a project. */
export function newChangePath(project: string): string {
  return paths.newChange.replace(":project", encodeURIComponent(project));
}

/** The last segment of a resource name: its id. */
export function lastSegment(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1);
}

/** `users/<id>` as the page shows it. */
export function userLabel(principal: string): string {
  return principal.replace(/^users\//, "");
}
