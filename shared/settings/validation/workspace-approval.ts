// WORKSPACE_APPROVAL (contract §7.3): conditions must evaluate, steps name
// roles that exist and that may approve.
import { conditionProblem } from "../../approval/approval-condition.ts";
import type { WorkspaceApprovalSetting } from "../../gen/svc/v1/setting_workspace_pb.js";
import { fieldError, requireEnum } from "./checks.ts";

const P = "workspaceApproval.rules";
// These roles never count as approvers (contract §6.2).
const NOT_APPROVERS = new Set(["roles/securityOfficer", "roles/readOnlyAuditor"]);

export async function validateWorkspaceApproval(value: WorkspaceApprovalSetting, roleExists: (role: string) => Promise<boolean>): Promise<void> {
  for (const [i, rule] of value.rules.entries()) {
    requireEnum(rule.source, `${P}[${i}].source`, "CHANGE_DATABASE");
    const expression = rule.condition?.expression?.trim() ?? "";
    if (!expression) throw fieldError(`${P}[${i}].condition.expression`, "is required (use true to match every change)");
    const problem = conditionProblem(expression);
    if (problem) throw fieldError(`${P}[${i}].condition.expression`, `does not compile: ${problem}`);
    for (const [j, step] of (rule.template?.steps ?? []).entries()) {
      const path = `${P}[${i}].template.steps[${j}].roles`;
      if (step.roles.length === 0) throw fieldError(path, "needs at least one role");
      for (const role of step.roles) {
        if (NOT_APPROVERS.has(role)) throw fieldError(path, `may not name ${role}: it never counts as an approver`);
        if (!(await roleExists(role))) throw fieldError(path, `names unknown role "${role}"`);
      }
    }
  }
}
