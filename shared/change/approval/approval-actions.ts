// Approving, rejecting and asking for review again (contract §11.2, §11.3):
// who may, and in which state. Each call reads the issue, locks its plan and
// then the issue, and acts only if the step it read is still the current
// one: of concurrent approvals of one step exactly one counts, the others are
// told the step is approved. The caller's permission and its approver roles
// are decided on one read of the IAM policies. The moves themselves are the
// pipeline's (pipeline/approval.ts).
import type { CommonQueryMethods } from "slonik";
import { type IamReads, type IamSubject, readOnce, requirePermission, storedIam } from "../../identity/index.ts";
import { issueName, type IssueRef } from "../issue/issue-names.ts";
import { findIssue, lockPlanAndIssue, type IssueRow } from "../issue/issue.store.ts";
import { failedPrecondition, type Metrics, notFound } from "../../platform/index.ts";
import { projectName } from "../../inventory/index.ts";
import { approveStep, rejectStep, requestReview } from "../pipeline/approval.ts";
import { requireEligibleApprover } from "./approver-eligibility.ts";

export type Caller = IamSubject & { name: string };

export interface Decision {
  ref: IssueRef;
  comment: string;
}

export async function approveIssue(tx: CommonQueryMethods, caller: Caller, decision: Decision, metrics: Pick<Metrics, "issueApprovalDuration">): Promise<IssueRow> {
  const iam = readOnce(storedIam(tx));
  const locked = await lockedPendingIssue(tx, iam, caller, decision.ref);
  await requireEligibleApprover(tx, iam, caller, locked.issue);
  return approveStep(tx, locked, { approver: caller.name, comment: decision.comment }, metrics);
}

export async function rejectIssue(tx: CommonQueryMethods, caller: Caller, decision: Decision): Promise<IssueRow> {
  const iam = readOnce(storedIam(tx));
  const { issue } = await lockedPendingIssue(tx, iam, caller, decision.ref);
  await requireEligibleApprover(tx, iam, caller, issue);
  return rejectStep(tx, issue, { approver: caller.name, comment: decision.comment });
}

/** The creator, or a holder of bb.issues.update: REJECTED → PENDING from the first step, approvals cleared. */
export async function requestIssueReview(tx: CommonQueryMethods, caller: Caller, decision: Decision): Promise<IssueRow> {
  const seen = await findIssue(tx, decision.ref);
  if (seen?.creator !== caller.name) await requirePermission(storedIam(tx), caller, "bb.issues.update", projectName(decision.ref.projectId));
  if (!seen) throw notFound(`issue "${issueName(decision.ref)}" does not exist`);
  const { issue } = await lockIssue(tx, seen);
  if (issue.status !== "OPEN" || issue.approvalStatus !== "REJECTED") {
    throw failedPrecondition(`issue "${issueName(issue)}" is ${issue.status} with approval ${issue.approvalStatus}; only a rejected open issue can ask for review again`);
  }
  return requestReview(tx, issue, { actor: caller.name, comment: decision.comment });
}

/**
 * The issue, which the caller must see, locked after its plan; it must be
 * OPEN and PENDING, at the step it was at when first read.
 */
async function lockedPendingIssue(tx: CommonQueryMethods, iam: IamReads, caller: Caller, ref: IssueRef): Promise<LockedIssue> {
  await requirePermission(iam, caller, "bb.issues.get", projectName(ref.projectId));
  const seen = await findIssue(tx, ref);
  if (!seen) throw notFound(`issue "${issueName(ref)}" does not exist`);
  requirePending(seen);
  const locked = await lockIssue(tx, seen);
  const { issue } = locked;
  const moved = issue.approvalStatus === "APPROVED" || (issue.approvalStatus === "PENDING" && issue.currentStep !== seen.currentStep);
  if (moved) throw failedPrecondition(`step ${seen.currentStep} of the approval of "${issueName(issue)}" is already approved`);
  requirePending(issue);
  return locked;
}

function requirePending(issue: IssueRow): void {
  if (issue.status !== "OPEN") throw failedPrecondition(`issue "${issueName(issue)}" is ${issue.status}`);
  if (issue.approvalStatus !== "PENDING") throw failedPrecondition(`the approval of issue "${issueName(issue)}" is ${issue.approvalStatus}, not PENDING`);
}

type LockedIssue = NonNullable<Awaited<ReturnType<typeof lockPlanAndIssue>>>;

/** Lock order: the plan, then the issue (an issue, once seen, is never deleted, nor is its plan). */
async function lockIssue(tx: CommonQueryMethods, issue: IssueRow): Promise<LockedIssue> {
  return (await lockPlanAndIssue(tx, issue))!;
}
