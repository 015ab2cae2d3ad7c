// What inventory adds to settings' writes (setting-rules.ts of governance):
// an environment that instances or databases still name cannot be removed.
import { settingRule, type SettingRule } from "../governance/index.ts";
import { refuseRemovingUsedEnvironments } from "./instance/environment-in-use.ts";

export function inventorySettingRules(): SettingRule[] {
  return [settingRule("ENVIRONMENT", { beforeSave: (current, next, { tx }) => refuseRemovingUsedEnvironments(current, next, tx) })];
}
