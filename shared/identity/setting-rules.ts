// What identity adds to settings' writes (setting-rules.ts of governance):
// SSO_GROUP_MAPPING names identity providers and roles, and a change of the
// workspace's e-mail domains reports the users and groups already outside.
import { settingRule, type SettingRule } from "../governance/index.ts";
import { validateSsoGroupMapping } from "./sso/group-mapping-check.ts";
import { reportOutsiders } from "./user/identity-domain-report.ts";

export function identitySettingRules(): SettingRule[] {
  return [
    settingRule("WORKSPACE_PROFILE", { afterSave: (before, after, { tx, logger }) => reportOutsiders(before, after, tx, logger) }),
    settingRule("SSO_GROUP_MAPPING", { validate: validateSsoGroupMapping }),
  ];
}
