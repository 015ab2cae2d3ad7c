// The revision rules of a release-sourced task run (contract §12.4, §13.2),
// for the task-run executor. Before the run touches its target, releaseGate
// decides from the database's live revision of the file's version: none →
// apply; the same sha256 → skip ("already applied"); another sha256 →
// refuse (the run fails before touching the target). When the run has
// applied the file, recordRevision writes its revision in the transaction
// that marks the run DONE. Checksums are never recomputed or rewritten.
import type { CommonQueryMethods } from "slonik";
import { databaseName } from "../../inventory/index.ts";
import type { ReleaseFileRef } from "../plan/plan-specs.ts";
import { revisionName } from "./revision-names.ts";
import { findLiveRevision, insertRevision, type RevisionRow } from "./revision.store.ts";

/** A release file to apply to one database. */
export interface ReleaseFileTarget {
  instanceId: string;
  /** The database's name on its instance. */
  databaseName: string;
  releaseFile: ReleaseFileRef;
}

export type ReleaseGateDecision =
  | { kind: "apply" }
  /** The version is recorded with the same checksum: the task is SKIPPED with this reason. */
  | { kind: "skip"; reason: string }
  /** The version is recorded with another checksum: the run FAILS (failed_precondition) with this message. */
  | { kind: "refuse"; message: string };

export async function releaseGate(db: CommonQueryMethods, target: ReleaseFileTarget): Promise<ReleaseGateDecision> {
  const { version, sha256 } = target.releaseFile;
  const live = await findLiveRevision(db, { instanceId: target.instanceId, name: target.databaseName }, version);
  if (!live) return { kind: "apply" };
  if (live.sha256 === sha256) return { kind: "skip", reason: `already applied (version ${version})` };
  return { kind: "refuse", message: `version ${version} was applied with a different checksum` };
}

export interface AppliedReleaseFile extends ReleaseFileTarget {
  /** The task run that applied the file. */
  taskRunId: number;
  /** users/<login_id> the revision is recorded for (the run's creator). */
  creator: string;
}

export type RecordOutcome =
  | { kind: "recorded"; revision: RevisionRow }
  /**
   * A live revision of the version was recorded meanwhile (a baseline
   * created while the run ran): it is kept as it is, never overwritten, and
   * no revision is written for this run. `message` says so, and whether its
   * checksum differs, for the run's detail.
   */
  | { kind: "kept"; revision: RevisionRow; message: string };

/**
 * Records the revision of an applied release file; call it in the
 * transaction that marks the run DONE. A concurrent insert of the same
 * version is waited for (the unique index on live versions) and then kept;
 * should that one be deleted before it is read, the insert is tried again.
 */
export async function recordRevision(tx: CommonQueryMethods, applied: AppliedReleaseFile): Promise<RecordOutcome> {
  const database = { instanceId: applied.instanceId, name: applied.databaseName };
  const { release, path, version, sha256 } = applied.releaseFile;
  for (let attempt = 0; attempt < 3; attempt++) {
    const revision = await insertRevision(tx, { database, release, file: path, version, sha256, taskRunId: applied.taskRunId, creator: applied.creator });
    if (revision) return { kind: "recorded", revision };
    const live = await findLiveRevision(tx, database, version);
    if (live) return { kind: "kept", revision: live, message: keptMessage(live, sha256) };
  }
  throw new Error(`the revision of version ${version} on ${databaseName(database)} could be neither recorded nor read`);
}

function keptMessage(live: RevisionRow, sha256: string): string {
  const checksum = live.sha256 === sha256 ? "with the same checksum" : `with a different checksum (${live.sha256})`;
  return `version ${live.version} was recorded meanwhile ${checksum} as ${revisionName(live)}; it is kept and no revision was recorded for this run`;
}
