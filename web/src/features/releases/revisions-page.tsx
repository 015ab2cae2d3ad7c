// The versions applied to one database (contract §13.2, bb.revisions.list):
// each revision's version, the release file it came from, its sha256 and
// the task run that wrote it; each leads to its statement.
import { RevisionService } from "@gen/svc/v1/revision_service_pb.js";
import { Link } from "wouter";
import { client } from "../../api/clients.ts";
import { ListFooter } from "../../components/list-footer.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { usePages } from "../../hooks/use-pages.ts";
import { pathOf, paths } from "../../routes/paths.ts";
import { DatabasePageHeader, useDatabaseRoute } from "../projects/database-page-header.tsx";
import { lastId } from "./release-names.ts";

export function RevisionsPage() {
  const route = useDatabaseRoute();
  const { project, instance, database } = route;
  const parent = `instances/${instance}/databases/${database}`;
  const pages = usePages(
    async (pageToken, signal) => {
      const reply = await client(RevisionService).listRevisions({ parent, pageToken, pageSize: 100 }, { signal });
      return { items: reply.revisions, nextPageToken: reply.nextPageToken };
    },
    [parent],
  );
  return (
    <section aria-labelledby="revisions-heading" className="page">
      <DatabasePageHeader headingId="revisions-heading" title="Revisions" route={route} neighbour={{ path: paths.databaseSchema, label: "Schema" }} />
      {pages.items.length > 0 && (
        <ListTable columns={["Version", "Release file", "sha256", "Applied by", "Applied"]}>
          {pages.items.map((revision) => (
            <tr key={revision.name}>
              <td>
                <Link href={pathOf(paths.databaseRevision, { project, instance, database, revision: lastId(revision.name) })}>{revision.version}</Link>
              </td>
              <td className="wrap">{revision.release ? `${lastId(revision.release)}: ${revision.file}` : "– (recorded as a baseline)"}</td>
              <td className="wrap">
                <code>{revision.sha256.slice(0, 12)}…</code>
              </td>
              <td>{revision.creator}</td>
              <td>
                <TimeText time={revision.createTime} />
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      <ListFooter pages={pages} empty="No revision yet: none of the project's releases has been applied here." />
    </section>
  );
}
