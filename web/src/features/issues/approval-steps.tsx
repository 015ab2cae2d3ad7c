// The issue's approval flow (contract §11.2, §11.3): each step of the
// selected template, the roles whose holders may approve it, and who
// approved or rejected it and when.
import type { Issue } from "@gen/svc/v1/issue_service_pb.js";
import { Issue_ApprovalStatus, Issue_Approver_Status } from "@gen/svc/v1/issue_service_pb.js";
import { TimeText } from "../../components/time-text.tsx";
import { lastSegment, userLabel } from "./issue-address.ts";

type StepState = "approved" | "rejected" | "current" | "waiting";

function stepState(issue: Issue, step: number): StepState {
  const decision = issue.approvers.find((a) => a.step === step);
  if (decision?.status === Issue_Approver_Status.APPROVED) return "approved";
  if (decision?.status === Issue_Approver_Status.REJECTED) return "rejected";
  return step === issue.currentStep && issue.approvalStatus === Issue_ApprovalStatus.PENDING ? "current" : "waiting";
}

const STATE_TEXT: Record<StepState, string> = { approved: "Approved", rejected: "Rejected", current: "Waiting for approval", waiting: "Not yet" };

export function ApprovalSteps({ issue }: { issue: Issue }) {
  const steps = issue.approvalTemplate?.steps ?? [];
  if (steps.length === 0) {
    const why = issue.approvalStatus === Issue_ApprovalStatus.CHECKING ? "The plan's checks are running; the approval flow is chosen when they finish." : "No approval is required.";
    return <p className="empty">{why}</p>;
  }
  return (
    <ol className="approval-steps">
      {steps.map((step, index) => {
        const state = stepState(issue, index);
        const decision = issue.approvers.find((a) => a.step === index);
        return (
          <li key={index} className={`approval-step step-${state}`} aria-current={state === "current" ? "step" : undefined}>
            <div className="step-head">
              <strong>Step {index + 1}</strong>
              <span className={`badge step-badge-${state}`}>{STATE_TEXT[state]}</span>
            </div>
            <p>Approved by a holder of: {step.roles.map(lastSegment).join(", ") || "–"}</p>
            {decision && (
              <p>
                {decision.status === Issue_Approver_Status.REJECTED ? "Rejected" : "Approved"} by <strong>{userLabel(decision.principal)}</strong>{" "}
                <TimeText time={decision.time} />
                {decision.comment && <q className="step-comment">{decision.comment}</q>}
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
