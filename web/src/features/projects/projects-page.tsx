// The projects the user can see (ListProjects shows every project the caller
// may read), each leading to its issues, databases and members.
import { Project_State, ProjectService } from "@gen/svc/v1/project_service_pb.js";
import { useState } from "react";
import { Link } from "wouter";
import { client } from "../../api/clients.ts";
import { ListFooter } from "../../components/list-footer.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { SearchField } from "../../components/search-field.tsx";
import { filterValue } from "../../api/filter.ts";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { usePages } from "../../hooks/use-pages.ts";
import { issuesPath } from "../issues/issue-views.ts";
import { ProjectLinks } from "./project-links.tsx";

export function ProjectsPage() {
  useDocumentTitle("Projects");
  const [search, setSearch] = useState("");
  const pages = usePages(
    async (pageToken, signal) => {
      const filter = search ? `title:${filterValue(search)}` : "";
      const reply = await client(ProjectService).listProjects({ pageToken, filter, pageSize: 100 }, { signal });
      return { items: reply.projects, nextPageToken: reply.nextPageToken };
    },
    [search],
  );
  return (
    <section aria-labelledby="projects-heading" className="page">
      <div className="page-head">
        <h1 id="projects-heading">Projects</h1>
        <SearchField label="Search projects by title" onSearch={setSearch} />
      </div>
      {pages.items.length > 0 && (
        <ListTable columns={["Title", "ID", "Key", "State", "Pages"]}>
          {pages.items.map((project) => {
            const id = project.name.slice("projects/".length);
            return (
              <tr key={project.name}>
                <td>
                  <Link href={issuesPath({ project: id })}>{project.title || id}</Link>
                </td>
                <td>
                  <code>{id}</code>
                </td>
                <td>{project.key}</td>
                <td>{Project_State[project.state]}</td>
                <td>
                  <ProjectLinks project={id} />
                </td>
              </tr>
            );
          })}
        </ListTable>
      )}
      <ListFooter pages={pages} empty={search ? "No project has such a title." : "No project yet."} />
    </section>
  );
}
