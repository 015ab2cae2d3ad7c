// Who may approve or reject an issue's current step (contract §11.3, §18.2):
// a holder of one of the step's roles at the issue's project or at
// workspace scope (bindings still in force, groups included); the creator
// only where self-approval is allowed; one person at most one step.
import type { CommonQueryMethods } from "slonik";
import { boundRoles, type IamReads, type IamSubject } from "../../identity/index.ts";
import { issueName } from "../issue/issue-names.ts";
import type { IssueRow } from "../issue/issue.store.ts";
import { permissionDenied } from "../../platform/index.ts";
import { findProject, projectName } from "../../inventory/index.ts";
import { readWorkspaceProfile, storedSettings } from "../../governance/index.ts";

/** `iam`: the reads of the transaction the issue was locked in. */
export async function requireEligibleApprover(tx: CommonQueryMethods, iam: IamReads, caller: IamSubject & { name: string }, issue: IssueRow): Promise<void> {
  if (issue.creator === caller.name && !(await selfApprovalAllowed(tx, issue.projectId))) {
    throw permissionDenied("self-approval is not allowed in this project");
  }
  const roles = issue.approvalTemplate?.steps[issue.currentStep]?.roles ?? [];
  const held = await boundRoles(iam, caller, projectName(issue.projectId));
  if (!roles.some((role) => held.has(role))) {
    throw permissionDenied(`step ${issue.currentStep} of the approval of "${issueName(issue)}" needs one of the roles ${roles.join(", ")}`);
  }
  const earlier = issue.approvers.find((a) => a.principal === caller.name && a.status === "APPROVED");
  if (earlier) {
    throw permissionDenied(`${caller.name} already approved step ${earlier.step} of "${issueName(issue)}"; one person approves at most one step`);
  }
}

/** The project's allowSelfApproval, else the workspace's default (§7.2, §9.1). */
async function selfApprovalAllowed(tx: CommonQueryMethods, projectId: string): Promise<boolean> {
  const own = (await findProject(tx, projectId))?.allowSelfApproval;
  return own ?? !(await readWorkspaceProfile(storedSettings(tx))).disallowSelfApprovalDefault;
}
