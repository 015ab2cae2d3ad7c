// APP_IM, AI, EMAIL and MONITORING (contract §7.4, §7.5, §7.8, §7.11).
// SSO_GROUP_MAPPING names identity providers and roles: identity checks it.
import type { AiSetting, AppImSetting, EmailSetting, MonitoringSetting } from "../../../gen/svc/store/setting_integrations_pb.js";
import { parseEmail, quoted } from "../../../platform/index.ts";
import { checkHttpUrl, checkRange, checkUnique, fieldError, requireEnum, requireText } from "./checks.ts";

// The event names of contract §16.2.
const NOTIFICATION_EVENTS = [
  "issue.created",
  "issue.approvalRequested",
  "issue.approved",
  "issue.rejected",
  "issue.commented",
  "rollout.stageStarted",
  "taskRun.failed",
  "rollout.done",
  "rollout.failed",
  "emergencyPause.changed",
  "user.locked",
];

const IM_TYPES = "SLACK, FEISHU, WECOM, LARK, DINGTALK, TEAMS, TELEGRAM";

export function validateAppIm(value: AppImSetting): void {
  value.settings.forEach((im, i) => {
    requireEnum(im.type, `appIm.settings[${i}].type`, IM_TYPES);
    checkHttpUrl(im.apiBaseUrl, `appIm.settings[${i}].apiBaseUrl`);
  });
  checkUnique(value.settings, (im) => im.type, (i) => `appIm.settings[${i}].type`, "the type");
}

export function validateAi(value: AiSetting): void {
  if (value.enabled) requireEnum(value.provider, "ai.provider", "OPENAI, CLAUDE, GEMINI, AZURE_OPENAI");
  checkHttpUrl(value.endpoint, "ai.endpoint");
}

export function validateEmail(value: EmailSetting): void {
  if (value.from !== undefined) value.from = parseEmail(value.from, "email.from");
  const smtp = value.smtp;
  if (!smtp) return;
  checkRange(smtp.port, "email.smtp.port", 1, 65535);
  if (smtp.host !== undefined && /\s/.test(smtp.host)) throw fieldError("email.smtp.host", `${quoted(smtp.host)} is not a host name`);
}

export function validateMonitoring(value: MonitoringSetting): void {
  value.webhooks.forEach((hook, i) => {
    checkHttpUrl(requireText(hook.url, `monitoring.webhooks[${i}].url`), `monitoring.webhooks[${i}].url`);
    hook.events.forEach((event, j) => {
      if (!NOTIFICATION_EVENTS.includes(event)) {
        throw fieldError(`monitoring.webhooks[${i}].events[${j}]`, `${quoted(event)} is not an event; known: ${NOTIFICATION_EVENTS.join(", ")}`);
      }
    });
  });
  checkUnique(value.webhooks, (hook) => hook.url, (i) => `monitoring.webhooks[${i}].url`, "the URL");
}
