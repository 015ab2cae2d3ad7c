// A project's databases (contract §9.5).
import { useParams } from "wouter";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { DatabaseList } from "./database-list.tsx";
import { ProjectLinks } from "./project-links.tsx";

export function ProjectDatabasesPage() {
  const project = useParams<{ project: string }>().project ?? "";
  useDocumentTitle(`Databases of ${project}`);
  return (
    <section aria-labelledby="project-databases-heading" className="page">
      <h1 id="project-databases-heading">Databases of {project}</h1>
      <ProjectLinks project={project} />
      <DatabaseList parent={`projects/${project}`} />
    </section>
  );
}
