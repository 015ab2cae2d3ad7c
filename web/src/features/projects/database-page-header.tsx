// The top every page of one database shares: what it shows of which
// database on which instance (also the tab's title), the project's links,
// and the way to a neighbouring page of the same database.
import { Link, useParams } from "wouter";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { pathOf } from "../../routes/paths.ts";
import { ProjectLinks } from "./project-links.tsx";

export type DatabaseRoute = { project: string; instance: string; database: string };

/** The project, instance and database a database page's address names. */
export function useDatabaseRoute(): DatabaseRoute {
  const { project = "", instance = "", database = "" } = useParams<Partial<DatabaseRoute>>();
  return { project, instance, database };
}

interface DatabasePageHeaderProps {
  headingId: string;
  /** What of the database the page shows, such as "Schema": the heading reads "Schema of <database>". */
  title: string;
  route: DatabaseRoute;
  /** A neighbouring page's path pattern and what it shows, linked as "<label> of <database>". */
  neighbour: { path: string; label: string };
}

export function DatabasePageHeader({ headingId, title, route, neighbour }: DatabasePageHeaderProps) {
  useDocumentTitle(`${title} of ${route.database}`);
  return (
    <>
      <h1 id={headingId}>
        {title} of {route.database} <span className="hint">on {route.instance}</span>
      </h1>
      <ProjectLinks project={route.project} />
      <p>
        <Link href={pathOf(neighbour.path, route)}>
          {neighbour.label} of {route.database}
        </Link>
      </p>
    </>
  );
}
