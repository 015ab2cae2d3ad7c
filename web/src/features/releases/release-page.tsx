// One release (contract §13.1, bb.releases.get), read-only: where it came
// from, and its files in version order, each with its change type, its
// statement and the sha256 the server computed of it.
import { type Release, Release_File_ChangeType, ReleaseService } from "@gen/svc/v1/release_service_pb.js";
import { useParams } from "wouter";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { Loading } from "../../components/loading.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { useLoad } from "../../hooks/use-load.ts";
import { ProjectLinks } from "../projects/project-links.tsx";
import { StatementText } from "./statement-text.tsx";

export function ReleasePage() {
  const { project = "", release: id = "" } = useParams<{ project: string; release: string }>();
  useDocumentTitle(`Release ${id}`);
  const name = `projects/${project}/releases/${id}`;
  const release = useLoad((signal) => client(ReleaseService).getRelease({ name }, { signal }), [name]);
  return (
    <section aria-labelledby="release-heading" className="page">
      <h1 id="release-heading">
        Release {id} {release.status === "done" && release.value.title && <span className="hint">{release.value.title}</span>}
      </h1>
      <ProjectLinks project={project} />
      {release.status === "loading" && <Loading />}
      {release.status === "failed" && <FormError message={release.message} />}
      {release.status === "done" && <ReleaseFiles release={release.value} />}
    </section>
  );
}

function ReleaseFiles({ release }: { release: Release }) {
  return (
    <>
      <dl className="record-facts">
        <dt>Created</dt>
        <dd>
          <TimeText time={release.createTime} /> by {release.creator}
        </dd>
        {release.vcsSource && (
          <>
            <dt>Source</dt>
            <dd>
              <code>{release.vcsSource.url}</code> at <code>{release.vcsSource.commit}</code>
            </dd>
          </>
        )}
      </dl>
      {release.files.map((file) => (
        <section key={file.path} aria-label={`Version ${file.version}`} className="admin-card">
          <h2>
            {file.version} <code>{file.path}</code> <span className="badge">{Release_File_ChangeType[file.changeType]}</span>
          </h2>
          <p style={{ overflowWrap: "anywhere" }}>
            sha256 <code>{file.sha256}</code>
          </p>
          <StatementText label={`Statement of version ${file.version}`} statement={file.statement} />
        </section>
      ))}
    </>
  );
}
