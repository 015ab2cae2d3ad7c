// A plan from a release (contract §13.1 CreatePlanFromRelease): one spec per
// file, in version order, whose targets are the given databases that do not
// record the file's version yet; each spec names its release file, so that
// its task runs record revisions (§13.2). A version recorded on a target
// with another checksum is refused here already, as applying it would be.
import type { CallAudit } from "../../governance/index.ts";
import { failedPrecondition } from "../../platform/index.ts";
import type { SpecInput } from "../plan/plan-specs.ts";
import type { PlanRow } from "../plan/plan.store.ts";
import { createPlan } from "../plan/plans.ts";
import { revisionName } from "../revision/revision-names.ts";
import { releaseName, type ReleaseRef } from "./release-names.ts";
import { appliedVersions, checkedTargets } from "./release-targets.ts";
import { activeRelease } from "./releases.ts";

export interface PlanFromRelease {
  ref: ReleaseRef;
  targets: readonly string[];
  /** The plan's title; "Apply <release title or name>" when empty. */
  title: string;
  creator: string;
}

export async function createPlanFromRelease(audit: CallAudit, request: PlanFromRelease): Promise<PlanRow> {
  const release = await activeRelease(audit.tx, request.ref);
  const name = releaseName(release);
  const targets = await checkedTargets(audit.tx, release.projectId, request.targets);
  const applied = await appliedVersions(audit.tx, targets, release.files);
  const specs: SpecInput[] = [];
  for (const file of release.files) {
    const pending = targets.filter((target) => {
      const revision = applied(target, file.version);
      if (revision && revision.sha256 !== file.sha256) {
        throw failedPrecondition(`version ${file.version} was applied to ${target.name} with a different checksum (${revisionName(revision)})`);
      }
      return !revision;
    });
    if (pending.length === 0) continue;
    specs.push({
      id: "",
      targets: pending.map((t) => t.name),
      statement: file.statement,
      type: file.changeType,
      releaseFile: { release: name, path: file.path, version: file.version, sha256: file.sha256 },
    });
  }
  if (specs.length === 0) throw failedPrecondition(`nothing to apply: every file of ${name} is already applied to the given targets`);
  return createPlan(audit, {
    projectId: release.projectId,
    planId: "",
    requestId: "",
    creator: request.creator,
    draft: { title: request.title.trim() || `Apply ${release.title || name}`, description: "", specs },
  });
}
