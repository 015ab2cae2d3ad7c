// A project's releases (contract §13.1, bb.releases.list), newest first,
// page by page; each leads to its files. Read-only: releases are made by CI
// through the API.
import { ReleaseService } from "@gen/svc/v1/release_service_pb.js";
import { Link, useParams } from "wouter";
import { client } from "../../api/clients.ts";
import { ListFooter } from "../../components/list-footer.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { usePages } from "../../hooks/use-pages.ts";
import { pathOf, paths } from "../../routes/paths.ts";
import { ProjectLinks } from "../projects/project-links.tsx";
import { lastId } from "./release-names.ts";

export function ReleasesPage() {
  const project = useParams<{ project: string }>().project ?? "";
  useDocumentTitle(`Releases of ${project}`);
  const pages = usePages(
    async (pageToken, signal) => {
      const reply = await client(ReleaseService).listReleases({ parent: `projects/${project}`, pageToken, pageSize: 50 }, { signal });
      return { items: reply.releases, nextPageToken: reply.nextPageToken };
    },
    [project],
  );
  return (
    <section aria-labelledby="releases-heading" className="page">
      <h1 id="releases-heading">Releases of {project}</h1>
      <ProjectLinks project={project} />
      {pages.items.length > 0 && (
        <ListTable columns={["Release", "Title", "Files", "Versions", "Created by", "Created"]}>
          {pages.items.map((release) => {
            const id = lastId(release.name);
            const versions = release.files.map((file) => file.version);
            return (
              <tr key={release.name}>
                <td>
                  <Link href={pathOf(paths.release, { project, release: id })}>{id}</Link>
                </td>
                <td>{release.title || "–"}</td>
                <td>{release.files.length}</td>
                <td>{versions.length > 0 ? `${versions[0]} … ${versions.at(-1)}` : "–"}</td>
                <td>{release.creator}</td>
                <td>
                  <TimeText time={release.createTime} />
                </td>
              </tr>
            );
          })}
        </ListTable>
      )}
      <ListFooter pages={pages} empty="No release yet: CI creates them through the API (ReleaseService.CreateRelease)." />
    </section>
  );
}
