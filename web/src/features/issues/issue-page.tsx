// One issue (contract §11): title, status, description and creator; the
// plan's statements per database with their checks; the approval steps and
// the user's approval actions; the rollout, live; the comments. The issue
// itself is watched (WatchIssue), so approvals and status changes by others
// show as they happen.
import { type Issue, Issue_ApprovalStatus, Issue_Status, IssueService } from "@gen/svc/v1/issue_service_pb.js";
import { RolloutService } from "@gen/svc/v1/rollout_service_pb.js";
import { useParams } from "wouter";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { Loading } from "../../components/loading.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { useWatch } from "../../hooks/use-watch.ts";
import { useSession } from "../auth/session.tsx";
import { mapStream, RolloutPanel } from "../changes/rollout-panel.tsx";
import { ApprovalSteps } from "./approval-steps.tsx";
import { issueNameOf, lastSegment, userLabel } from "./issue-address.ts";
import { IssueActions } from "./issue-actions.tsx";
import { IssueComments } from "./issue-comments.tsx";
import { PlanView } from "./plan-view.tsx";

export function IssuePage() {
  const name = issueNameOf(useParams());
  const watched = useWatch<Issue>(
    (signal) => mapStream(client(RolloutService).watchIssue({ name }, { signal }), (reply) => reply.issue),
    (signal) => client(IssueService).getIssue({ name }, { signal }),
    [name],
  );
  const issue = watched.value;
  useDocumentTitle(issue ? `Issue ${lastSegment(name)} · ${issue.title}` : "Issue");
  if (!issue) return <section className="page">{watched.error ? <FormError message={watched.error} /> : <Loading />}</section>;
  return <IssueDetails issue={issue} />;
}

function IssueDetails({ issue }: { issue: Issue }) {
  const session = useSession();
  const user = session.state.status === "signed-in" ? session.state.user.name : "";
  const status = Issue_Status[issue.status];
  const approval = Issue_ApprovalStatus[issue.approvalStatus];
  return (
    <article className="page issue-page" aria-labelledby="issue-heading">
      <header className="page-head">
        <h1 id="issue-heading">
          {issue.title} <span className="subtitle">#{lastSegment(issue.name)}</span>
        </h1>
        <p className="issue-meta">
          <span className={`badge status-${status.toLowerCase()}`} data-testid="issue-status">{status}</span>{" "}
          <span className={`badge approval-${approval.toLowerCase()}`} data-testid="approval-status">{approval}</span> · created by <strong>{userLabel(issue.creator)}</strong>{" "}
          <TimeText time={issue.createTime} />
          {issue.riskLevel && <> · risk {issue.riskLevel}</>}
        </p>
      </header>
      {issue.description && <p className="issue-description">{issue.description}</p>}

      <section aria-labelledby="plan-heading" className="panel">
        <h2 id="plan-heading">Changes</h2>
        <PlanView planName={issue.plan} checksVersion={approval} />
      </section>

      <section aria-labelledby="approval-heading" className="panel">
        <h2 id="approval-heading">Approval</h2>
        <ApprovalSteps issue={issue} />
        <IssueActions issue={issue} user={user} />
      </section>

      <section aria-labelledby="rollout-heading" className="panel">
        <h2 id="rollout-heading">Rollout</h2>
        {issue.rollout ? <RolloutPanel rolloutName={issue.rollout} /> : <p className="empty">The rollout is created once the issue is approved.</p>}
      </section>

      <section aria-labelledby="comments-heading" className="panel">
        <h2 id="comments-heading">Activity</h2>
        <IssueComments issueName={issue.name} version={issueVersion(issue)} />
      </section>
    </article>
  );
}

/** Changes whenever the issue reads differently, so that its history is read again. */
function issueVersion(issue: Issue): string {
  return `${issue.approvalStatus}/${issue.status}/${issue.approvers.length}/${issue.updateTime?.seconds ?? 0}/${issue.rollout}`;
}
