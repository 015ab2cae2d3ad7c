// The ways from one project to its pages: issues, databases, members.
import { Link } from "wouter";
import { pathOf, paths } from "../../routes/paths.ts";
import { issuesPath } from "../issues/issue-views.ts";

export function ProjectLinks({ project }: { project: string }) {
  return (
    <nav aria-label={`Project ${project}`} className="project-links">
      <Link href={issuesPath({ project })}>Issues</Link>
      <Link href={pathOf(paths.projectDatabases, { project })}>Databases</Link>
      <Link href={pathOf(paths.projectMembers, { project })}>Members</Link>
    </nav>
  );
}
