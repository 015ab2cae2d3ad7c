// A plan's checks and the approval that waits for them (contract §10.2,
// §11.2): a new plan's checks start; new specs start new checks (a newer run
// supersedes a running one) and send the plan's open issue back to CHECKING;
// a finished check run (DONE or FAILED) lets the issue waiting in CHECKING
// have its approval evaluated. The callers hold the plan's lock.
import type { CommonQueryMethods } from "slonik";
import { SYSTEM_ACTOR } from "../../governance/index.ts";
import { findLiveIssueOfPlan, type IssueRow } from "../issue/issue.store.ts";
import type { CheckResult } from "../plan-check/check-result.ts";
import { latestRuns } from "../plan-check/check-run.store.ts";
import { startCheckRun } from "../plan-check/check-runs.ts";
import type { PlanRef } from "../plan/plan-names.ts";
import { findPlan, type PlanRow } from "../plan/plan.store.ts";
import { evaluateApproval, resetApproval } from "./approval.ts";

export async function planCreated(tx: CommonQueryMethods, plan: PlanRef): Promise<void> {
  await startCheckRun(tx, plan.projectId, plan.id);
}

export async function planSpecsChanged(tx: CommonQueryMethods, plan: PlanRef, actor: string): Promise<void> {
  await startCheckRun(tx, plan.projectId, plan.id);
  await resetApproval(tx, plan, actor);
}

/**
 * A new issue's approval, its plan locked: evaluated at once when the plan's
 * checks have finished, else CHECKING (a new check run starts when none is
 * under way, e.g. the last one was cancelled).
 */
export async function approvalOfNewIssue(tx: CommonQueryMethods, issue: IssueRow, plan: PlanRow): Promise<IssueRow> {
  const checks = await finishedChecks(tx, plan);
  if ("results" in checks) return evaluateApproval(tx, issue, plan, checks.results, issue.creator);
  if (!checks.running) await startCheckRun(tx, plan.projectId, plan.id);
  return issue;
}

/** In the transaction that ended a check run of the plan: its OPEN issue waiting in CHECKING gets its approval. */
export async function checksFinished(tx: CommonQueryMethods, plan: PlanRef): Promise<void> {
  const issue = await findLiveIssueOfPlan(tx, plan.projectId, plan.id, true);
  if (issue?.status !== "OPEN" || issue.approvalStatus !== "CHECKING") return;
  const checks = await finishedChecks(tx, plan);
  const row = await findPlan(tx, plan.projectId, plan.id);
  if ("results" in checks && row) await evaluateApproval(tx, issue, row, checks.results, SYSTEM_ACTOR);
}

/** The results of the plan's latest check run once it has finished (DONE or FAILED). */
async function finishedChecks(tx: CommonQueryMethods, plan: PlanRef): Promise<{ results: CheckResult[] } | { running: boolean }> {
  const run = (await latestRuns(tx, plan.projectId, [plan.id])).get(plan.id);
  if (run?.status === "DONE" || run?.status === "FAILED") return { results: run.results };
  return { running: run?.status === "RUNNING" };
}
