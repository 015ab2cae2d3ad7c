// Revisions (contract §13.2): reading, recording a baseline by hand (a
// version applied outside the service) and deleting one (it then no longer
// counts). Revisions written by task runs go through revision-gate.ts.
import type { CommonQueryMethods } from "slonik";
import type { CallAudit } from "../../governance/index.ts";
import { databaseName, type DatabaseRef, getDatabase, projectName } from "../../inventory/index.ts";
import { alreadyExists, failedPrecondition, invalidArgument, notFound, quoted } from "../../platform/index.ts";
import { parseReleaseName } from "../release/release-names.ts";
import { isVersion } from "../release/release-version.ts";
import { activeRelease } from "../release/releases.ts";
import { revisionName, type RevisionRef } from "./revision-names.ts";
import { findLiveRevision, findRevision, insertRevision, markRevisionDeleted, type NewRevision, type RevisionRow } from "./revision.store.ts";

/** What CreateRevision is given: a release file (release and file), or a version and its sha256. */
export interface BaselineDraft {
  release: string;
  file: string;
  version: string;
  sha256: string;
}

const SHA256 = /^[0-9a-f]{64}$/;

export async function getRevision(db: CommonQueryMethods, ref: RevisionRef): Promise<RevisionRow> {
  const revision = await findRevision(db, ref.database, ref.id);
  if (!revision) throw notFound(`revision "${revisionName(ref)}" does not exist`);
  return revision;
}

export async function createBaseline(audit: CallAudit, database: DatabaseRef, draft: BaselineDraft, creator: string): Promise<RevisionRow> {
  const row = await getDatabase(audit.tx, database);
  if (row.state !== "ACTIVE") throw failedPrecondition(`database "${databaseName(database)}" is deleted`);
  const fields = draft.release ? await releaseFileFields(audit.tx, row.projectId, draft) : versionFields(draft);
  const revision = await insertRevision(audit.tx, { database, ...fields, taskRunId: undefined, creator });
  if (!revision) {
    const live = await findLiveRevision(audit.tx, database, fields.version);
    throw alreadyExists(`version ${fields.version} is already recorded for ${databaseName(database)}${live ? ` (${revisionName(live)})` : ""}`);
  }
  audit.resource = revisionName(revision);
  return revision;
}

type BaselineFields = Pick<NewRevision, "release" | "file" | "version" | "sha256">;

/** A release file of the database's project gives the version and sha256 (which, when given too, must match). */
async function releaseFileFields(db: CommonQueryMethods, projectId: string, draft: BaselineDraft): Promise<BaselineFields> {
  const ref = parseReleaseName(draft.release, "revision.release");
  if (ref.projectId !== projectId) throw invalidArgument(`revision.release: ${draft.release} is not a release of ${projectName(projectId)}, which holds the database`);
  if (!draft.file) throw invalidArgument("revision.file: the path of a file of the release is required");
  const release = await activeRelease(db, ref);
  const file = release.files.find((f) => f.path === draft.file);
  if (!file) throw invalidArgument(`revision.file: ${quoted(draft.release)} has no file ${quoted(draft.file)}`);
  if (draft.version && draft.version !== file.version) throw invalidArgument(`revision.version: the file's version is ${file.version}, not ${draft.version}`);
  if (draft.sha256 && draft.sha256.toLowerCase() !== file.sha256) throw invalidArgument(`revision.sha256: does not match the file's sha256 ${file.sha256}`);
  return { release: draft.release, file: file.path, version: file.version, sha256: file.sha256 };
}

function versionFields(draft: BaselineDraft): BaselineFields {
  if (!isVersion(draft.version)) {
    throw invalidArgument(`revision.version: ${quoted(draft.version)} is not a valid version; give release and file, or a version such as 1.2.10 and its sha256`);
  }
  const sha256 = draft.sha256.toLowerCase();
  if (!SHA256.test(sha256)) throw invalidArgument(`revision.sha256: ${quoted(draft.sha256)} is not a hex SHA-256 (64 hex digits)`);
  return { release: "", file: draft.file.trim(), version: draft.version, sha256 };
}

export async function deleteRevision(tx: CommonQueryMethods, ref: RevisionRef): Promise<void> {
  if (!(await markRevisionDeleted(tx, ref.database, ref.id))) throw notFound(`revision "${revisionName(ref)}" does not exist`);
}
