// Issue status as people set it (contract §11.1): CANCELED by
// BatchUpdateIssuesStatus, which cancels a rollout not started or paused and
// is refused while a task run is RUNNING; OPEN again from CANCELED. (OPEN on
// creation; DONE, final, is the pipeline's move when the rollout is DONE.)
import type { CommonQueryMethods } from "slonik";
import type { CallAudit } from "../../governance/index.ts";
import { alreadyExists, failedPrecondition, invalidArgument, notFound, quoted } from "../../platform/index.ts";
import { planName } from "../plan/plan-names.ts";
import { findPlan } from "../plan/plan.store.ts";
import { projectName } from "../../inventory/index.ts";
import { cancelIdleRollout } from "../rollout/rollout-cancel.ts";
import { addIssueEvent } from "./issue-events.ts";
import { issueName, parseIssueName, type IssueRef } from "./issue-names.ts";
import { findIssue, findLiveIssueOfPlan, transitionIssueStatus, type IssueRow, type IssueStatus } from "./issue.store.ts";

export interface StatusChange {
  projectId: string;
  /** Issue names, all of the project. */
  issues: readonly string[];
  status: IssueStatus | undefined;
  reason: string;
  /** users/<login_id> of the caller. */
  actor: string;
}

/**
 * Sets the status of each issue: CANCELED from OPEN, OPEN from CANCELED; an
 * issue already there is left as it is. One audit record per issue changed.
 */
export async function updateIssuesStatus(audit: CallAudit, change: StatusChange): Promise<IssueRow[]> {
  if (change.status !== "CANCELED" && change.status !== "OPEN") {
    throw invalidArgument("status: set CANCELED, or OPEN to reopen a canceled issue (DONE is set by the server when the rollout is done)");
  }
  if (change.issues.length === 0) throw invalidArgument("issues: name at least one issue");
  const refs = change.issues.map((name, i) => {
    const ref = parseIssueName(name, `issues[${i}]`);
    if (ref.projectId !== change.projectId) throw invalidArgument(`issues[${i}]: ${quoted(name)} is not an issue of ${projectName(change.projectId)}`);
    return ref;
  });
  const updated: IssueRow[] = [];
  for (const ref of refs) {
    const { issue, changed } = await setStatus(audit.tx, ref, change.status, change);
    if (changed) record(audit, issue, change);
    updated.push(issue);
  }
  return updated;
}

async function setStatus(tx: CommonQueryMethods, ref: IssueRef, to: "OPEN" | "CANCELED", change: StatusChange): Promise<{ issue: IssueRow; changed: boolean }> {
  const seen = await findIssue(tx, ref);
  if (!seen) throw notFound(`issue "${issueName(ref)}" does not exist`);
  if (seen.status === to) return { issue: seen, changed: false };
  const from = to === "CANCELED" ? "OPEN" : "CANCELED";
  if (seen.status !== from) throw failedPrecondition(`issue "${issueName(ref)}" is ${seen.status}; only ${from} issues can become ${to}`);
  await findPlan(tx, seen.projectId, seen.planId, true); // lock order: plan, rollout, issue
  if (to === "CANCELED" && seen.rolloutId) await cancelIdleRollout(tx, { projectId: seen.projectId, id: seen.rolloutId }, change.reason, change.actor);
  if (to === "OPEN") {
    const live = await findLiveIssueOfPlan(tx, seen.projectId, seen.planId);
    if (live) throw alreadyExists(`plan "${planName({ projectId: seen.projectId, id: seen.planId })}" already has issue "${issueName(live)}" (${live.status})`);
  }
  const moved = await transitionIssueStatus(tx, ref, { from: [from], to });
  if (!moved) throw failedPrecondition(`issue "${issueName(ref)}" changed meanwhile; read it again and retry`);
  await addIssueEvent(tx, ref, { kind: "STATUS_CHANGED", from, to }, change.actor, change.reason.trim());
  return { issue: (await findIssue(tx, ref))!, changed: true };
}

/** The call's own record names the first issue; each further one gets its own record. */
function record(audit: CallAudit, issue: IssueRow, change: StatusChange): void {
  const detail = { status: change.status, reason: change.reason };
  if (audit.resource === undefined) {
    audit.resource = issueName(issue);
    audit.detail = detail;
  } else {
    audit.extra.push({ action: audit.action, resource: issueName(issue), detail });
  }
}
