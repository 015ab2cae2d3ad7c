// One revision of a database (contract §13.2, bb.revisions.get) with the
// statement that was applied: a revision keeps only the release and file it
// came from, so the statement is read from that release (bb.releases.get).
import { type Release, ReleaseService } from "@gen/svc/v1/release_service_pb.js";
import { type Revision, RevisionService } from "@gen/svc/v1/revision_service_pb.js";
import { Link, useParams } from "wouter";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { Loading } from "../../components/loading.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { useLoad } from "../../hooks/use-load.ts";
import { pathOf, paths } from "../../routes/paths.ts";
import { DatabasePageHeader, useDatabaseRoute } from "../projects/database-page-header.tsx";
import { lastId } from "./release-names.ts";
import { StatementText } from "./statement-text.tsx";

interface RevisionWithRelease {
  revision: Revision;
  /** Undefined for a baseline recorded without a release. */
  release: Release | undefined;
}

async function readRevision(name: string, signal: AbortSignal): Promise<RevisionWithRelease> {
  const revision = await client(RevisionService).getRevision({ name }, { signal });
  const release = revision.release ? await client(ReleaseService).getRelease({ name: revision.release }, { signal }) : undefined;
  return { revision, release };
}

export function RevisionPage() {
  const route = useDatabaseRoute();
  const { project, instance, database } = route;
  const id = useParams<{ revision?: string }>().revision ?? "";
  const name = `instances/${instance}/databases/${database}/revisions/${id}`;
  const loaded = useLoad((signal) => readRevision(name, signal), [name]);
  const version = loaded.status === "done" ? loaded.value.revision.version : id;
  return (
    <section aria-labelledby="revision-heading" className="page">
      <DatabasePageHeader headingId="revision-heading" title={`Version ${version}`} route={route} neighbour={{ path: paths.databaseRevisions, label: "All revisions" }} />
      {loaded.status === "loading" && <Loading />}
      {loaded.status === "failed" && <FormError message={loaded.message} />}
      {loaded.status === "done" && <RevisionFacts project={project} {...loaded.value} />}
    </section>
  );
}

function RevisionFacts({ project, revision, release }: RevisionWithRelease & { project: string }) {
  const file = release?.files.find((candidate) => candidate.path === revision.file);
  return (
    <>
      <dl className="record-facts">
        <dt>Applied</dt>
        <dd>
          <TimeText time={revision.createTime} /> by {revision.creator}
          {revision.taskRun && <> in task run <code>{revision.taskRun}</code></>}
        </dd>
        <dt>Release</dt>
        <dd>
          {release ? (
            <>
              <Link href={pathOf(paths.release, { project, release: lastId(release.name) })}>{lastId(release.name)}</Link>, file <code>{revision.file}</code>
            </>
          ) : (
            "none (recorded as a baseline)"
          )}
        </dd>
        <dt>sha256</dt>
        <dd style={{ overflowWrap: "anywhere" }}>
          <code>{revision.sha256}</code>
        </dd>
      </dl>
      {file ? <StatementText label={`Statement of version ${revision.version}`} statement={file.statement} /> : release && <p className="empty">The release no longer has this file.</p>}
    </>
  );
}
