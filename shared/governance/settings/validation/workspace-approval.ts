// WORKSPACE_APPROVAL (contract §7.3): conditions must compile over the
// variables of a change, steps name roles that exist (stored by their
// canonical name) and that may approve (§6.2).
import { conditionProblem } from "../../../change/approval/approval-condition.ts";
import type { WorkspaceApprovalSetting } from "../../../gen/svc/v1/setting_workspace_pb.js";
import { predefinedRole } from "../../../identity/iam/predefined-roles.ts";
import { ROLE_PREFIX } from "../../../identity/iam/roles.ts";
import type { ValidationContext } from "../setting-catalog.ts";
import { fieldError, requireEnum } from "./checks.ts";

const P = "workspaceApproval.rules";

export async function validateWorkspaceApproval(value: WorkspaceApprovalSetting, context: ValidationContext): Promise<void> {
  for (const [i, rule] of value.rules.entries()) {
    requireEnum(rule.source, `${P}[${i}].source`, "CHANGE_DATABASE");
    const expression = rule.condition?.expression?.trim() ?? "";
    if (!expression) throw fieldError(`${P}[${i}].condition.expression`, "is required (use true to match every change)");
    const problem = conditionProblem(expression);
    if (problem) throw fieldError(`${P}[${i}].condition.expression`, `does not compile: ${problem}`);
    for (const [j, step] of (rule.template?.steps ?? []).entries()) {
      const path = `${P}[${i}].template.steps[${j}].roles`;
      if (step.roles.length === 0) throw fieldError(path, "needs at least one role");
      for (const [k, role] of step.roles.entries()) {
        const name = await context.canonicalRole(role);
        if (!name) throw fieldError(`${path}[${k}]`, `names unknown role "${role}"`);
        if (predefinedRole(name.slice(ROLE_PREFIX.length))?.canApprove === false) {
          throw fieldError(`${path}[${k}]`, `may not name ${name}: it never counts as an approver`);
        }
        step.roles[k] = name;
      }
    }
  }
}
