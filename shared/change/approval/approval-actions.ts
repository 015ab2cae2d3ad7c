// Approving, rejecting and asking for review again (contract §11.2, §11.3).
// Each call reads the issue, locks its plan and then the issue, and acts only
// if the step it read is still the current one: of concurrent approvals of
// one step exactly one counts, the others are told the step is approved.
import type { CommonQueryMethods } from "slonik";
import { requirePermission } from "../../identity/iam/authorize.ts";
import type { IamSubject } from "../../identity/iam/members.ts";
import { addIssueEvent } from "../issue/issue-events.ts";
import { issueName, type IssueRef } from "../issue/issue-names.ts";
import { findIssue, writeApproval, type Approver, type IssueRow } from "../issue/issue.store.ts";
import type { Metrics } from "../../platform/metrics.ts";
import { failedPrecondition, notFound } from "../../platform/errors.ts";
import { findPlan } from "../plan/plan.store.ts";
import { projectName } from "../../inventory/project/projects.ts";
import { approvalGranted } from "./approval-flow.ts";
import { requireEligibleApprover } from "./approver-eligibility.ts";

export type Caller = IamSubject & { name: string };

export interface Decision {
  ref: IssueRef;
  comment: string;
}

export async function approveIssue(tx: CommonQueryMethods, caller: Caller, decision: Decision, metrics: Pick<Metrics, "issueApprovalDuration">): Promise<IssueRow> {
  const issue = await lockedPendingIssue(tx, caller, decision.ref);
  await requireEligibleApprover(tx, caller, issue);
  const approvers = [...issue.approvers, approverEntry("APPROVED", caller, issue.currentStep, decision.comment)];
  const last = issue.currentStep + 1 >= (issue.approvalTemplate?.steps.length ?? 0);
  const row = await writeApproval(tx, issue, {
    status: last ? "APPROVED" : "PENDING",
    template: issue.approvalTemplate,
    approvers,
    currentStep: last ? issue.currentStep : issue.currentStep + 1,
  });
  await addIssueEvent(tx, issue, { kind: "APPROVED", step: issue.currentStep }, caller.name, decision.comment);
  if (!last) return row;
  if (issue.pendingTime) metrics.issueApprovalDuration.observe((Date.now() - issue.pendingTime.getTime()) / 1000);
  return approvalGranted(tx, row, caller.name);
}

export async function rejectIssue(tx: CommonQueryMethods, caller: Caller, decision: Decision): Promise<IssueRow> {
  const issue = await lockedPendingIssue(tx, caller, decision.ref);
  await requireEligibleApprover(tx, caller, issue);
  const row = await writeApproval(tx, issue, {
    status: "REJECTED",
    template: issue.approvalTemplate,
    approvers: [...issue.approvers, approverEntry("REJECTED", caller, issue.currentStep, decision.comment)],
    currentStep: issue.currentStep,
  });
  await addIssueEvent(tx, issue, { kind: "REJECTED", step: issue.currentStep }, caller.name, decision.comment);
  return row;
}

/** The creator, or a holder of bb.issues.update: REJECTED → PENDING from the first step, approvals cleared. */
export async function requestIssueReview(tx: CommonQueryMethods, caller: Caller, decision: Decision): Promise<IssueRow> {
  const seen = await findIssue(tx, decision.ref);
  if (seen?.creator !== caller.name) await requirePermission(tx, caller, "bb.issues.update", projectName(decision.ref.projectId));
  if (!seen) throw notFound(`issue "${issueName(decision.ref)}" does not exist`);
  const issue = await lockIssue(tx, seen);
  if (issue.status !== "OPEN" || issue.approvalStatus !== "REJECTED") {
    throw failedPrecondition(`issue "${issueName(issue)}" is ${issue.status} with approval ${issue.approvalStatus}; only a rejected open issue can ask for review again`);
  }
  const row = await writeApproval(tx, issue, { status: "PENDING", template: issue.approvalTemplate, approvers: [], currentStep: 0 });
  await addIssueEvent(tx, issue, { kind: "REVIEW_REQUESTED" }, caller.name, decision.comment);
  return row;
}

/**
 * The issue, which the caller must see, locked; it must be OPEN and PENDING,
 * at the step it was at when first read.
 */
async function lockedPendingIssue(tx: CommonQueryMethods, caller: Caller, ref: IssueRef): Promise<IssueRow> {
  await requirePermission(tx, caller, "bb.issues.get", projectName(ref.projectId));
  const seen = await findIssue(tx, ref);
  if (!seen) throw notFound(`issue "${issueName(ref)}" does not exist`);
  requirePending(seen);
  const issue = await lockIssue(tx, seen);
  const moved = issue.approvalStatus === "APPROVED" || (issue.approvalStatus === "PENDING" && issue.currentStep !== seen.currentStep);
  if (moved) throw failedPrecondition(`step ${seen.currentStep} of the approval of "${issueName(issue)}" is already approved`);
  requirePending(issue);
  return issue;
}

function requirePending(issue: IssueRow): void {
  if (issue.status !== "OPEN") throw failedPrecondition(`issue "${issueName(issue)}" is ${issue.status}`);
  if (issue.approvalStatus !== "PENDING") throw failedPrecondition(`the approval of issue "${issueName(issue)}" is ${issue.approvalStatus}, not PENDING`);
}

/** Lock order: the plan, then the issue. */
async function lockIssue(tx: CommonQueryMethods, issue: IssueRow): Promise<IssueRow> {
  await findPlan(tx, issue.projectId, issue.planId, true);
  return (await findIssue(tx, issue, true))!;
}

function approverEntry(status: Approver["status"], caller: Caller, step: number, comment: string): Approver {
  return { status, principal: caller.name, step, comment, time: new Date().toISOString() };
}
