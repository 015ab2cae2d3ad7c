// What notify adds to settings' writes (setting-rules.ts of governance): a
// MONITORING webhook and an APP_IM entry's apiBaseUrl must not point inside
// (contract §19.6) — an internal IP, or a name that resolves to one — unless
// --webhook-allow-private.
import type { AppImSetting, MonitoringSetting } from "../gen/svc/store/setting_integrations_pb.js";
import { settingRule, type SettingRule } from "../governance/index.ts";
import { refuseInternalUrl } from "./address-guard.ts";

export interface NotifyRuleOptions {
  allowPrivate: boolean;
}

export function notifySettingRules(options: NotifyRuleOptions): SettingRule[] {
  return [
    settingRule("MONITORING", { validate: (value) => checkWebhookAddresses(value, options) }),
    settingRule("APP_IM", { validate: (value) => checkImAddresses(value, options) }),
  ];
}

async function checkWebhookAddresses(value: MonitoringSetting, options: NotifyRuleOptions): Promise<void> {
  if (options.allowPrivate) return;
  // The setting's own validation, which runs first, made each url an http(s) URL.
  for (const [i, hook] of value.webhooks.entries()) await refuseInternalUrl(new URL(hook.url!), `monitoring.webhooks[${i}].url`);
}

async function checkImAddresses(value: AppImSetting, options: NotifyRuleOptions): Promise<void> {
  if (options.allowPrivate) return;
  for (const [i, im] of value.settings.entries()) if (im.apiBaseUrl) await refuseInternalUrl(new URL(im.apiBaseUrl), `appIm.settings[${i}].apiBaseUrl`);
}
