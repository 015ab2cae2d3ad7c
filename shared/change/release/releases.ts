// Releases (contract §13.1): creating (idempotent by request id), reading,
// changing the title (nothing else ever changes), soft deletion and restoring.
import type { CommonQueryMethods } from "slonik";
import type { CallAudit } from "../../governance/index.ts";
import {
  alreadyExists,
  checkRequestId,
  failedPrecondition,
  invalidArgument,
  jsonName,
  maskFields,
  notFound,
  quoted,
  RESOURCE_ID_PATTERN,
  snakeCase,
} from "../../platform/index.ts";
import { activeProject } from "../../inventory/index.ts";
import { checkedFiles, type ReleaseFileInput } from "./release-files.ts";
import { releaseName, type ReleaseRef } from "./release-names.ts";
import {
  findRelease,
  findReleaseByRequest,
  forgetOldReleaseRequest,
  insertRelease,
  setReleaseState,
  setReleaseTitle,
  type ReleaseRow,
  type VcsSource,
} from "./release.store.ts";

export interface ReleaseDraft {
  title: string;
  files: readonly ReleaseFileInput[];
  vcsSource: VcsSource | undefined;
}

export interface NewRelease {
  projectId: string;
  /** Client-chosen id, or "" for a server-chosen number. */
  releaseId: string;
  requestId: string;
  creator: string;
  draft: ReleaseDraft;
}


const MASK = {
  resource: "release",
  editable: ["title"],
  outputOnly: ["name", "state", "creator", "create_time", "update_time"],
} as const;
/** Fields fixed at creation: naming them in a mask is refused with its own message. */
const IMMUTABLE = ["files", "vcs_source"];

/** The release, deleted ones included; not_found when it does not exist. */
export async function getRelease(db: CommonQueryMethods, ref: ReleaseRef, forUpdate = false): Promise<ReleaseRow> {
  const release = await findRelease(db, ref.projectId, ref.id, forUpdate);
  if (!release) throw notFound(`release "${releaseName(ref)}" does not exist`);
  return release;
}

/** The release, which must be ACTIVE (to change it, check it or make a plan from it). */
export async function activeRelease(db: CommonQueryMethods, ref: ReleaseRef, forUpdate = false): Promise<ReleaseRow> {
  const release = await getRelease(db, ref, forUpdate);
  if (release.state !== "ACTIVE") throw failedPrecondition(`release "${releaseName(ref)}" is deleted; undelete it first`);
  return release;
}

export async function createRelease(audit: CallAudit, release: NewRelease): Promise<ReleaseRow> {
  const tx = audit.tx;
  if (release.releaseId && !RESOURCE_ID_PATTERN.test(release.releaseId)) {
    throw invalidArgument(
      `release_id: ${quoted(release.releaseId)} is not a valid release id; it starts with a lower-case letter and has up to 63 lower-case letters, digits and hyphens`,
    );
  }
  checkRequestId(release.requestId);
  if (release.requestId) {
    const earlier = await findReleaseByRequest(tx, release.creator, release.requestId);
    if (earlier) return (audit.resource = releaseName(earlier)), earlier;
    await forgetOldReleaseRequest(tx, release.creator, release.requestId);
  }
  await activeProject(tx, release.projectId);
  const row = await insertRelease(tx, {
    projectId: release.projectId,
    id: release.releaseId || undefined,
    title: release.draft.title.trim(),
    files: checkedFiles(release.draft.files, "release.files"),
    vcsSource: release.draft.vcsSource,
    creator: release.creator,
    requestId: release.requestId || undefined,
  });
  if (!row) return conflictingCreate(tx, release);
  audit.resource = releaseName(row);
  return row;
}

/** A create that lost a race: same request id (answer that release) or a taken release id. */
async function conflictingCreate(tx: CommonQueryMethods, release: NewRelease): Promise<ReleaseRow> {
  const earlier = release.requestId ? await findReleaseByRequest(tx, release.creator, release.requestId) : undefined;
  if (earlier) return earlier;
  throw alreadyExists(`release "${releaseName({ projectId: release.projectId, id: release.releaseId })}" already exists`);
}

/** Changes the title, the one field that may change (update_mask title). */
export async function updateReleaseTitle(tx: CommonQueryMethods, ref: ReleaseRef, paths: readonly string[], title: string): Promise<ReleaseRow> {
  const immutable = paths.find((p) => IMMUTABLE.includes(snakeCase(p.replace(/^release\./, ""))));
  if (immutable) throw invalidArgument(`update_mask: ${jsonName(immutable)} cannot change: a release is immutable except its title`);
  maskFields(paths, MASK);
  await activeRelease(tx, ref, true);
  return setReleaseTitle(tx, ref.projectId, ref.id, title.trim());
}

export async function deleteRelease(tx: CommonQueryMethods, ref: ReleaseRef): Promise<void> {
  const release = await findRelease(tx, ref.projectId, ref.id, true);
  if (!release || release.state !== "ACTIVE") throw notFound(`release "${releaseName(ref)}" does not exist`);
  await setReleaseState(tx, ref.projectId, ref.id, "DELETED");
}

export async function undeleteRelease(tx: CommonQueryMethods, ref: ReleaseRef): Promise<ReleaseRow> {
  const release = await getRelease(tx, ref, true);
  if (release.state !== "DELETED") throw failedPrecondition(`release "${releaseName(ref)}" is not deleted`);
  return setReleaseState(tx, ref.projectId, ref.id, "ACTIVE");
}
