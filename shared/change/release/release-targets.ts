// The databases a release is checked on or applied to: at least one, each
// named once, every one an active database of the release's project; and the
// versions they already record (live revisions, contract §13.2).
import type { CommonQueryMethods } from "slonik";
import { databaseName, type DatabaseRef, parseDatabaseName } from "../../inventory/index.ts";
import { invalidArgument } from "../../platform/index.ts";
import { checkTargetsInProject } from "../plan/plan-specs.ts";
import { findLiveRevisions, type RevisionRow } from "../revision/revision.store.ts";
import type { ReleaseFile } from "./release-files.ts";

export interface ReleaseTarget {
  /** instances/<i>/databases/<d> */
  name: string;
  ref: DatabaseRef;
}

export async function checkedTargets(db: CommonQueryMethods, projectId: string, names: readonly string[]): Promise<ReleaseTarget[]> {
  if (names.length === 0) throw invalidArgument("targets: at least one target database is required");
  const targets = names.map((name, i) => {
    const ref = parseDatabaseName(name, `targets[${i}]`);
    return { name: databaseName(ref), ref };
  });
  if (new Set(targets.map((t) => t.name)).size !== targets.length) throw invalidArgument("targets: a database is listed twice");
  await checkTargetsInProject(db, projectId, targets.map((t) => t.name));
  return targets;
}

/** Looks up the live revision of a version on a target, among those of the files. */
export type AppliedLookup = (target: ReleaseTarget, version: string) => RevisionRow | undefined;

export async function appliedVersions(db: CommonQueryMethods, targets: readonly ReleaseTarget[], files: readonly ReleaseFile[]): Promise<AppliedLookup> {
  const revisions = await findLiveRevisions(db, targets.map((t) => t.ref), files.map((f) => f.version));
  const byKey = new Map(revisions.map((r) => [`${databaseName(r.database)}\n${r.version}`, r]));
  return (target, version) => byKey.get(`${target.name}\n${version}`);
}
