// What the signed-in user may do with the issue's approval: approve or
// reject the current step, or ask for review again after a rejection, each
// with an optional comment. The buttons follow the issue's state and the
// user's part in it; who holds the step's roles is the server's to judge
// (§11.3), and its refusal is shown as it says it.
import { type Issue, Issue_ApprovalStatus, Issue_Status, IssueService } from "@gen/svc/v1/issue_service_pb.js";
import { useId, useState } from "react";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { useAction } from "../../hooks/use-action.ts";

export interface ApprovalChoices {
  decide: boolean;
  requestReview: boolean;
}

/** Approve/reject while a step waits and the user has decided none; review again for the creator of a rejected issue. */
export function approvalChoices(issue: Issue, user: string): ApprovalChoices {
  const open = issue.status === Issue_Status.OPEN;
  const decided = issue.approvers.some((a) => a.principal === user);
  return {
    decide: open && issue.approvalStatus === Issue_ApprovalStatus.PENDING && !decided,
    requestReview: open && issue.approvalStatus === Issue_ApprovalStatus.REJECTED && issue.creator === user,
  };
}

export function IssueActions({ issue, user }: { issue: Issue; user: string }) {
  const id = useId();
  const [comment, setComment] = useState("");
  const action = useAction();
  const choices = approvalChoices(issue, user);
  if (!choices.decide && !choices.requestReview) return null;
  const issues = client(IssueService);
  const act = (call: (request: { name: string; comment: string }) => Promise<unknown>) => async () => {
    // The issue's watch shows the outcome; only the comment box is left to clear.
    if (await action.run(() => call({ name: issue.name, comment: comment.trim() }))) setComment("");
  };
  return (
    <form className="issue-actions" onSubmit={(event) => event.preventDefault()} aria-label="Approval">
      <div className="field">
        <label htmlFor={id}>Approval comment (optional)</label>
        <textarea id={id} rows={2} value={comment} onChange={(event) => setComment(event.target.value)} />
      </div>
      <FormError message={action.error} />
      <div className="actions">
        {choices.decide && (
          <>
            <button type="button" className="button primary" disabled={action.pending} onClick={act((r) => issues.approveIssue(r))}>
              Approve
            </button>
            <button type="button" className="button danger" disabled={action.pending} onClick={act((r) => issues.rejectIssue(r))}>
              Reject
            </button>
          </>
        )}
        {choices.requestReview && (
          <button type="button" className="button primary" disabled={action.pending} onClick={act((r) => issues.requestIssueReview(r))}>
            Request review again
          </button>
        )}
      </div>
    </form>
  );
}
