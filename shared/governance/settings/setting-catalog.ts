// Every SettingName (contract §7): its payload, read from SettingValue (the
// field named as the setting in lower case; its JSON name is the key of the
// payload in Setting.value, §7.1), its defaults, and the checks and
// adjustments of its own (what other capabilities add is in
// setting-rules.ts). SYSTEM is internal and never reaches clients (§7.13).
import type { DescField, DescMessage, JsonObject, Message } from "@bufbuild/protobuf";
import { SettingValueSchema } from "../../gen/svc/store/setting_pb.js";
import { invalidArgument, permissionDenied, quoted } from "../../platform/index.ts";
import type { SettingName, SettingPayloads } from "./setting-payloads.ts";
import type { SettingHooks } from "./setting-rules.ts";
import type { ListKeys } from "./setting-secrets.ts";
import * as defaults from "./setting-defaults.ts";
import { validateDataClassification, validateSemanticTypes } from "./validation/data.ts";
import { validateEnvironments } from "./validation/environment.ts";
import { validateAi, validateAppIm, validateEmail, validateMonitoring } from "./validation/integrations.ts";
import { announcePauseChange, stampPause, validateEmergencyPause, validateMaintenanceWindow } from "./validation/schedule.ts";
import { keepFlagExternalUrl, validateWorkspaceProfile } from "./validation/workspace-profile.ts";

export interface SettingKind {
  name: SettingName;
  /** The payload's field in SettingValue; its JSON name is the payload's key in Setting.value. */
  field: DescField;
  /** The payload's message (field.message). */
  schema: DescMessage;
  defaults: JsonObject;
  /** The setting's own checks and adjustments; other capabilities add theirs as SettingRules. */
  hooks: SettingHooks;
}

function kind<N extends SettingName>(name: N, hooks: SettingHooks<SettingPayloads[N]> = {}, defaultValue: JsonObject = {}): SettingKind {
  const field = SettingValueSchema.fields.find((f) => f.name === name.toLowerCase());
  if (field?.fieldKind !== "message") throw new Error(`SettingValue has no payload field for ${name}`);
  return { name, field, schema: field.message, defaults: defaultValue, hooks: hooks as SettingHooks<Message> };
}

export const SETTINGS: readonly SettingKind[] = [
  kind("WORKSPACE_PROFILE", { beforeSave: keepFlagExternalUrl, validate: validateWorkspaceProfile }, defaults.WORKSPACE_PROFILE_DEFAULTS),
  kind("WORKSPACE_APPROVAL", {}, defaults.WORKSPACE_APPROVAL_DEFAULTS),
  kind("APP_IM", { validate: validateAppIm }),
  kind("AI", { validate: validateAi }, defaults.AI_DEFAULTS),
  kind("DATA_CLASSIFICATION", { validate: validateDataClassification }),
  kind("SEMANTIC_TYPES", { validate: validateSemanticTypes }),
  kind("ENVIRONMENT", { validate: validateEnvironments }, defaults.ENVIRONMENT_DEFAULTS),
  kind("EMAIL", { validate: validateEmail }, defaults.EMAIL_DEFAULTS),
  kind("MAINTENANCE_WINDOW", { validate: validateMaintenanceWindow }, defaults.MAINTENANCE_WINDOW_DEFAULTS),
  kind("EMERGENCY_PAUSE", { beforeSave: stampPause, validate: validateEmergencyPause, afterSave: announcePauseChange }, defaults.EMERGENCY_PAUSE_DEFAULTS),
  kind("MONITORING", { validate: validateMonitoring }),
  kind("SSO_GROUP_MAPPING"),
];

/** Entries of these lists keep stored credentials by their key (contract §7.4). */
export const LIST_KEYS: ListKeys = new Map([
  ["svc.store.AppImSetting.Im", "type"],
  ["svc.store.MonitoringSetting.Webhook", "url"],
]);

const SYSTEM = "SYSTEM";
const NAME = /^settings\/([A-Z_]+)$/;

/** The setting a client names (settings/<NAME>); SYSTEM → permission_denied, anything else unknown → invalid_argument. */
export function settingNamed(resourceName: string): SettingKind {
  const name = NAME.exec(resourceName)?.[1];
  if (name === SYSTEM) throw permissionDenied("settings/SYSTEM is internal to the server");
  const found = SETTINGS.find((s) => s.name === name);
  if (!found) throw invalidArgument(`unknown setting ${quoted(resourceName)}; known: ${SETTINGS.map((s) => `settings/${s.name}`).join(", ")}`);
  return found;
}

export function settingKind(name: SettingName): SettingKind {
  const found = SETTINGS.find((s) => s.name === name);
  if (!found) throw new Error(`no setting ${name}`);
  return found;
}
