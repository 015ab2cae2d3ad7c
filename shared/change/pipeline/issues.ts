// An issue entering the pipeline, and people's comments on it (contract
// §11.1, §16.2): a new issue is announced (issue.created) and its approval
// starts; a comment is announced (issue.commented). An issue's later moves are
// approval.ts (its approval) and progress.ts (DONE with its rollout).
import type { CommonQueryMethods } from "slonik";
import type { CommentRow } from "../issue/issue-comment.store.ts";
import { commentName } from "../issue/issue-names.ts";
import type { IssueRow } from "../issue/issue.store.ts";
import { planName } from "../plan/plan-names.ts";
import type { PlanRow } from "../plan/plan.store.ts";
import { approvalOfNewIssue } from "./checks.ts";
import { issueSubject } from "./event-subjects.ts";
import { emit } from "./events.ts";

/** The issue was just created for the plan (locked): the issue as its approval leaves it. */
export async function issueOpened(tx: CommonQueryMethods, issue: IssueRow, plan: PlanRow): Promise<IssueRow> {
  await emit(tx, { ...issueSubject(issue, issue.creator), event: "issue.created", detail: { plan: planName(plan) } });
  return approvalOfNewIssue(tx, issue, plan);
}

export async function issueCommented(tx: CommonQueryMethods, issue: IssueRow, comment: CommentRow): Promise<void> {
  await emit(tx, { ...issueSubject(issue, comment.creator), event: "issue.commented", detail: { comment: commentName(comment) } });
}
