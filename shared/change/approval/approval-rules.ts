// WORKSPACE_APPROVAL as issues use it (contract §7.3): for each change, the
// first CHANGE_DATABASE rule whose condition holds selects its template; over
// all the changes of an issue the strictest selected template (most steps)
// wins. No match at all selects nothing.
import { WorkspaceApprovalSetting_Source } from "../../gen/svc/store/setting_workspace_pb.js";
import type { ApprovalTemplate } from "../issue/issue.store.ts";
import { readSetting, type SettingReader } from "../../governance/index.ts";
import { compileCondition, type ChangeFacts } from "./approval-condition.ts";

export interface ApprovalRule {
  matches: (facts: ChangeFacts) => boolean;
  template: ApprovalTemplate;
}

/** The CHANGE_DATABASE rules in order, their conditions compiled. */
export async function readApprovalRules(settings: SettingReader): Promise<ApprovalRule[]> {
  const value = await readSetting(settings, "WORKSPACE_APPROVAL");
  return value.rules
    .filter((rule) => rule.source === WorkspaceApprovalSetting_Source.CHANGE_DATABASE)
    .map((rule) => ({
      matches: compileCondition(rule.condition?.expression ?? "false"),
      template: {
        title: rule.template?.title ?? "",
        description: rule.template?.description ?? "",
        steps: (rule.template?.steps ?? []).map((step) => ({ roles: [...step.roles] })),
      },
    }));
}

/** The template the changes call for: the one with most steps among each change's first match. */
export function selectTemplate(rules: readonly ApprovalRule[], changes: readonly ChangeFacts[]): ApprovalTemplate | undefined {
  let strictest: ApprovalTemplate | undefined;
  for (const change of changes) {
    const template = rules.find((rule) => rule.matches(change))?.template;
    if (template && (!strictest || template.steps.length > strictest.steps.length)) strictest = template;
  }
  return strictest;
}
