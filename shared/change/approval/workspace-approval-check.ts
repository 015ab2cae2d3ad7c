// WORKSPACE_APPROVAL's check (contract §7.3), a rule of the setting's write:
// conditions must compile over the variables of a change, steps name roles
// that exist (stored by their canonical name) and that may approve (§6.2).
import type { WorkspaceApprovalSetting } from "../../gen/svc/store/setting_workspace_pb.js";
import { fieldError, requireEnum, type SaveContext } from "../../governance/index.ts";
import { findCanonicalRole, mayApprove } from "../../identity/index.ts";
import { quoted } from "../../platform/index.ts";
import { conditionProblem } from "./approval-condition.ts";

const P = "workspaceApproval.rules";

export async function validateWorkspaceApproval(value: WorkspaceApprovalSetting, { tx }: SaveContext): Promise<void> {
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
        const name = await findCanonicalRole(tx, role);
        if (!name) throw fieldError(`${path}[${k}]`, `names unknown role ${quoted(role)}`);
        if (!mayApprove(name)) {
          throw fieldError(`${path}[${k}]`, `may not name ${name}: it never counts as an approver`);
        }
        step.roles[k] = name;
      }
    }
  }
}
