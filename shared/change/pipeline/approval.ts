// An issue's approval as the pipeline moves it (contract §11.2–§11.4):
//
//   (new) ──checks running──▶ CHECKING ──checks done──▶ PENDING (step 0) or SKIPPED
//   PENDING ──approve──▶ PENDING (next step) … ──approve of the last step──▶ APPROVED
//   PENDING ──reject──▶ REJECTED ──review requested──▶ PENDING (step 0, approvals cleared)
//   any open issue ──plan specs edited──▶ CHECKING (approvals cleared)
//
// checks.ts decides when the checks let the approval be evaluated. APPROVED
// or SKIPPED creates the rollout in the same transaction (§11.4).
// Each PENDING step emits issue.approvalRequested; the last approval emits
// issue.approved, a rejection issue.rejected. The callers hold the locks, in
// the order used everywhere: the plan, then its check runs, its rollout, its
// issue (a rollout created under the issue's lock is new: nobody else holds it).
import type { CommonQueryMethods } from "slonik";
import { storedSettings } from "../../governance/index.ts";
import { type Metrics, noticeChange } from "../../platform/index.ts";
import { readApprovalRules, selectTemplate } from "../approval/approval-rules.ts";
import { changeFactsOf } from "../approval/change-facts.ts";
import { addIssueEvent } from "../issue/issue-events.ts";
import { issueName } from "../issue/issue-names.ts";
import { findIssue, findLiveIssueOfPlan, writeApproval, type Approver, type IssueRow } from "../issue/issue.store.ts";
import type { CheckResult } from "../plan-check/check-result.ts";
import type { PlanRef } from "../plan/plan-names.ts";
import type { PlanRow } from "../plan/plan.store.ts";
import { issueSubject } from "./event-subjects.ts";
import { emit } from "./events.ts";
import { createRollout } from "./rollout-creation.ts";

/** The plan's checks have finished: the template their results call for decides between PENDING and SKIPPED. */
export async function evaluateApproval(tx: CommonQueryMethods, issue: IssueRow, plan: PlanRow, results: readonly CheckResult[], actor: string): Promise<IssueRow> {
  const rules = await readApprovalRules(storedSettings(tx));
  const template = selectTemplate(rules, await changeFactsOf(tx, plan, results, issue.creator));
  if (template === undefined || template.steps.length === 0) {
    const skipped = await writeApproval(tx, issue, { status: "SKIPPED", template, approvers: [], currentStep: 0 });
    await noticeChange(tx, issueName(skipped));
    return grantApproval(tx, skipped, plan, issue.creator);
  }
  const pending = await askForStep(tx, { ...issue, approvalTemplate: template }, [], 0, actor);
  await noticeChange(tx, issueName(pending));
  return pending;
}

/** The plan's specs changed (its plan locked): its OPEN issue waits for the new checks, approvals cleared. */
export async function resetApproval(tx: CommonQueryMethods, plan: PlanRef, actor: string): Promise<void> {
  const issue = await findLiveIssueOfPlan(tx, plan.projectId, plan.id, true);
  if (issue?.status !== "OPEN") return;
  await writeApproval(tx, issue, { status: "CHECKING", template: undefined, approvers: [], currentStep: 0 });
  await addIssueEvent(tx, issue, { kind: "APPROVAL_RESET", reason: "the plan's specs changed" }, actor);
}

/** The issue (PENDING, locked after its plan, the approver eligible) approved at its current step: the next step is asked, or the rollout made. */
export async function approveStep(
  tx: CommonQueryMethods,
  { issue, plan }: { issue: IssueRow; plan: PlanRow },
  decision: { approver: string; comment: string },
  metrics: Pick<Metrics, "issueApprovalDuration">,
): Promise<IssueRow> {
  const step = issue.currentStep;
  const approvers = [...issue.approvers, approverEntry("APPROVED", decision.approver, step, decision.comment)];
  if (step + 1 < (issue.approvalTemplate?.steps.length ?? 0)) {
    const row = await askForStep(tx, issue, approvers, step + 1, decision.approver);
    await addIssueEvent(tx, issue, { kind: "APPROVED", step }, decision.approver, decision.comment);
    return row;
  }
  const row = await writeApproval(tx, issue, { status: "APPROVED", template: issue.approvalTemplate, approvers, currentStep: step });
  await addIssueEvent(tx, issue, { kind: "APPROVED", step }, decision.approver, decision.comment);
  await emit(tx, { ...issueSubject(row, decision.approver), event: "issue.approved", detail: { step } });
  if (issue.pendingTime) metrics.issueApprovalDuration.observe((Date.now() - issue.pendingTime.getTime()) / 1000);
  return grantApproval(tx, row, plan, decision.approver);
}

/** The issue (PENDING, locked, the approver eligible) rejected at its current step. */
export async function rejectStep(tx: CommonQueryMethods, issue: IssueRow, decision: { approver: string; comment: string }): Promise<IssueRow> {
  const step = issue.currentStep;
  const row = await writeApproval(tx, issue, {
    status: "REJECTED",
    template: issue.approvalTemplate,
    approvers: [...issue.approvers, approverEntry("REJECTED", decision.approver, step, decision.comment)],
    currentStep: step,
  });
  await addIssueEvent(tx, issue, { kind: "REJECTED", step }, decision.approver, decision.comment);
  await emit(tx, { ...issueSubject(row, decision.approver), event: "issue.rejected", detail: { step, comment: decision.comment } });
  return row;
}

/** The issue (REJECTED, locked) asks for review again: PENDING from the first step, approvals cleared. */
export async function requestReview(tx: CommonQueryMethods, issue: IssueRow, request: { actor: string; comment: string }): Promise<IssueRow> {
  const row = await askForStep(tx, issue, [], 0, request.actor);
  await addIssueEvent(tx, issue, { kind: "REVIEW_REQUESTED" }, request.actor, request.comment);
  return row;
}

/** Approval is APPROVED or SKIPPED: the rollout is created now (§11.4); the issue as it then reads. */
async function grantApproval(tx: CommonQueryMethods, issue: IssueRow, plan: PlanRow, creator: string): Promise<IssueRow> {
  const rollout = await createRollout(tx, { projectId: issue.projectId, planId: issue.planId, issueId: issue.issueId, creator }, plan);
  // Only a rollout DONE at once (nothing to run) moves its issue on (progress.ts finishIssue).
  return rollout.state === "DONE" ? (await findIssue(tx, issue))! : { ...issue, rolloutId: rollout.id };
}

/** PENDING at `step` of the issue's template, with `approvers` so far; its role holders are asked. */
async function askForStep(tx: CommonQueryMethods, issue: IssueRow, approvers: readonly Approver[], step: number, actor: string): Promise<IssueRow> {
  const row = await writeApproval(tx, issue, { status: "PENDING", template: issue.approvalTemplate, approvers, currentStep: step });
  const roles = issue.approvalTemplate?.steps[step]?.roles ?? [];
  await emit(tx, { ...issueSubject(row, actor), event: "issue.approvalRequested", detail: { step, roles: [...roles] } });
  return row;
}

function approverEntry(status: Approver["status"], principal: string, step: number, comment: string): Approver {
  return { status, principal, step, comment, time: new Date().toISOString() };
}
