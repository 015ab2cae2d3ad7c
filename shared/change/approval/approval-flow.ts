// The moves of an issue's approval the server makes by itself (contract
// §11.2): CHECKING until the plan's checks finish, then PENDING at the first
// step of the selected template, or SKIPPED when no approval is needed; back
// to CHECKING when the plan's specs change. Approval granted (APPROVED or
// SKIPPED) creates the rollout in the same transaction (§11.4).
//
// Lock order, everywhere: the plan, then its check runs, its rollout, its issue
// (a rollout created under the issue's lock is new: nobody else holds it).
import type { CommonQueryMethods } from "slonik";
import { addIssueEvent } from "../issue/issue-events.ts";
import { issueName, type IssueRef } from "../issue/issue-names.ts";
import { findIssue, findLiveIssueOfPlan, writeApproval, type IssueRow } from "../issue/issue.store.ts";
import type { CheckResult } from "../plan-check/check-result.ts";
import { latestRuns } from "../plan-check/check-run.store.ts";
import { startCheckRun } from "../plan-check/check-runs.ts";
import type { PlanRef } from "../plan/plan-names.ts";
import { findPlan, type PlanRow } from "../plan/plan.store.ts";
import { createRollout } from "../rollout/create-rollout.ts";
import { storedSettings } from "../../governance/settings/setting-cache.ts";
import { noticeChange } from "../../platform/watch/change-notice.store.ts";
import { readApprovalRules, selectTemplate } from "./approval-rules.ts";
import { changeFactsOf } from "./change-facts.ts";

/** The results of the plan's latest check run once it has finished (DONE or FAILED). */
async function finishedChecks(tx: CommonQueryMethods, plan: PlanRef): Promise<{ results: CheckResult[] } | { running: boolean }> {
  const run = (await latestRuns(tx, plan.projectId, [plan.id])).get(plan.id);
  if (run?.status === "DONE" || run?.status === "FAILED") return { results: run.results };
  return { running: run?.status === "RUNNING" };
}

/**
 * A new issue's approval, its plan locked: evaluated at once when the plan's
 * checks have finished, else CHECKING (a new check run starts when none is
 * under way, e.g. the last one was cancelled).
 */
export async function startApproval(tx: CommonQueryMethods, issue: IssueRow, plan: PlanRow): Promise<IssueRow> {
  const checks = await finishedChecks(tx, plan);
  if ("results" in checks) return evaluateApproval(tx, issue, plan, checks.results);
  if (!checks.running) await startCheckRun(tx, plan.projectId, plan.id);
  return issue;
}

/**
 * Called when a check run of the plan has finished (DONE or FAILED) in the
 * transaction that ended it, the plan locked: the plan's OPEN issue waiting
 * in CHECKING gets its approval.
 */
export async function afterPlanChecks(tx: CommonQueryMethods, plan: PlanRef): Promise<void> {
  const issue = await findLiveIssueOfPlan(tx, plan.projectId, plan.id, true);
  if (issue?.status !== "OPEN" || issue.approvalStatus !== "CHECKING") return;
  const checks = await finishedChecks(tx, plan);
  const row = await findPlan(tx, plan.projectId, plan.id);
  if ("results" in checks && row) await evaluateApproval(tx, issue, row, checks.results);
}

/** The plan's specs changed (its plan locked): its OPEN issue waits for the new checks, approvals cleared. */
export async function resetApproval(tx: CommonQueryMethods, plan: PlanRef, actor: string): Promise<void> {
  const issue = await findLiveIssueOfPlan(tx, plan.projectId, plan.id, true);
  if (issue?.status !== "OPEN") return;
  await writeApproval(tx, issue, { status: "CHECKING", template: undefined, approvers: [], currentStep: 0 });
  await addIssueEvent(tx, issue, { kind: "APPROVAL_RESET", reason: "the plan's specs changed" }, actor);
}

async function evaluateApproval(tx: CommonQueryMethods, issue: IssueRow, plan: PlanRow, results: readonly CheckResult[]): Promise<IssueRow> {
  const rules = await readApprovalRules(storedSettings(tx));
  const template = selectTemplate(rules, await changeFactsOf(tx, plan, results, issue.creator));
  const needed = template !== undefined && template.steps.length > 0;
  const row = await writeApproval(tx, issue, { status: needed ? "PENDING" : "SKIPPED", template, approvers: [], currentStep: 0 });
  await noticeChange(tx, issueName(row));
  return needed ? row : approvalGranted(tx, row, issue.creator);
}

/** Approval is APPROVED or SKIPPED: the rollout is created now (§11.4); the issue as it then reads. */
export async function approvalGranted(tx: CommonQueryMethods, issue: IssueRef & { planId: string }, creator: string): Promise<IssueRow> {
  await createRollout(tx, { projectId: issue.projectId, planId: issue.planId, issueId: issue.issueId, creator });
  return (await findIssue(tx, issue))!;
}
