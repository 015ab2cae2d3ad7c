// The ways from one project to its pages: issues, databases, releases,
// members, and its webhooks for those who may change the project.
import { Link } from "wouter";
import { pathOf, paths } from "../../routes/paths.ts";
import { usePermissions } from "../iam/use-permissions.ts";
import { issuesPath } from "../issues/issue-views.ts";

const UPDATE = ["bb.projects.update"] as const;

export function ProjectLinks({ project }: { project: string }) {
  const mayUpdate = usePermissions(`projects/${project}`, UPDATE).can("bb.projects.update");
  return (
    <nav aria-label={`Project ${project}`} className="project-links">
      <Link href={issuesPath({ project })}>Issues</Link>
      <Link href={pathOf(paths.projectDatabases, { project })}>Databases</Link>
      <Link href={pathOf(paths.projectReleases, { project })}>Releases</Link>
      <Link href={pathOf(paths.projectMembers, { project })}>Members</Link>
      {mayUpdate && <Link href={pathOf(paths.projectWebhooks, { project })}>Webhooks</Link>}
    </nav>
  );
}
