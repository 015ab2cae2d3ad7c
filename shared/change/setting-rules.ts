// What the change pipeline adds to settings' writes (setting-rules.ts of
// governance): the review rules an environment configures and the approval
// rules must make sense to the review and the approval flow; switching the
// emergency pause or moving the maintenance window acts on the task runs in
// the same transaction (task-run/gate-changes.ts).
import { settingRule, type SettingRule } from "../governance/index.ts";
import { validateWorkspaceApproval } from "./approval/workspace-approval-check.ts";
import { validateReviewRules } from "./review/review-rules-check.ts";
import { applyEmergencyPauseSwitch, applyMaintenanceWindowChange } from "./task-run/gate-changes.ts";

export function changeSettingRules(): SettingRule[] {
  return [
    settingRule("ENVIRONMENT", { validate: validateReviewRules }),
    settingRule("WORKSPACE_APPROVAL", { validate: validateWorkspaceApproval }),
    settingRule("MAINTENANCE_WINDOW", { afterSave: (before, after, { tx }) => applyMaintenanceWindowChange(before, after, tx) }),
    settingRule("EMERGENCY_PAUSE", { afterSave: (before, after, { tx }) => applyEmergencyPauseSwitch(before, after, tx) }),
  ];
}
