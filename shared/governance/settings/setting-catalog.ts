// Every SettingName (contract §7): its payload, read from SettingValue (the
// field named as the setting in lower case; its JSON name is the key of the
// payload in Setting.value, §7.1), its defaults, its validation and what a
// write of it adjusts. SYSTEM is internal and never reaches clients (§7.13).
import type { DescField, DescMessage, JsonObject, Message } from "@bufbuild/protobuf";
import type { CommonQueryMethods } from "slonik";
import { SettingValueSchema } from "../../gen/svc/v1/setting_service_pb.js";
import { refuseRemovingUsedEnvironments } from "../../inventory/instance/environment-in-use.ts";
import { invalidArgument, permissionDenied } from "../../platform/errors.ts";
import type { Logger } from "../../platform/logger.ts";
import { applyEmergencyPauseSwitch, applyMaintenanceWindowChange } from "../../change/task-run/gate-changes.ts";
import { reportOutsiders } from "../../identity/user/identity-domain-report.ts";
import type { ListKeys } from "./setting-secrets.ts";
import * as defaults from "./setting-defaults.ts";
import { validateDataClassification, validateSemanticTypes } from "./validation/data.ts";
import { validateEnvironments } from "./validation/environment.ts";
import { validateAi, validateAppIm, validateEmail, validateMonitoring, validateSsoGroupMapping } from "./validation/integrations.ts";
import { stampPause, validateEmergencyPause, validateMaintenanceWindow } from "./validation/schedule.ts";
import { validateWorkspaceApproval } from "./validation/workspace-approval.ts";
import { keepFlagExternalUrl, validateWorkspaceProfile } from "./validation/workspace-profile.ts";

export interface ValidationContext {
  /** roles/<id> as stored, for a role named in any letter case; undefined when no role has that id. */
  canonicalRole(role: string): Promise<string | undefined>;
}

export interface SaveContext {
  /** Who writes (users/<login id>). */
  updater: string;
  /** The --external-url flag, which wins over WORKSPACE_PROFILE.external_url. */
  externalUrlFlag: string | undefined;
  /** The call's log, for what a write finds worth a warning. */
  logger: Logger;
}

/** What a stored write found, added to its bb.settings.set record's detail. */
export type SaveFacts = Record<string, unknown> | undefined | void;

export interface SettingKind {
  name: string;
  /** The payload's field in SettingValue; its JSON name is the payload's key in Setting.value. */
  field: DescField;
  /** The payload's message (field.message). */
  schema: DescMessage;
  defaults: JsonObject;
  /** Checks a payload about to be stored; may normalize it (durations, role names). */
  validate(value: Message, context: ValidationContext): void | Promise<void>;
  /** Adjusts (or refuses) the merged payload of a write, before it is validated and stored; `tx` is the write's transaction. */
  beforeSave?(current: Message, next: Message, context: SaveContext, tx: CommonQueryMethods): void | Promise<void>;
  /** Acts on a stored write (`before` and `after` effective values), in the write's transaction `tx`. */
  afterSave?(before: Message, after: Message, tx: CommonQueryMethods, context: SaveContext): SaveFacts | Promise<SaveFacts>;
}

interface KindOptions<M extends Message> {
  defaults?: JsonObject;
  beforeSave?(current: M, next: M, context: SaveContext, tx: CommonQueryMethods): void | Promise<void>;
  afterSave?(before: M, after: M, tx: CommonQueryMethods, context: SaveContext): SaveFacts | Promise<SaveFacts>;
}

function kind<M extends Message>(
  name: string,
  validate: (value: M, context: ValidationContext) => void | Promise<void>,
  options: KindOptions<M> = {},
): SettingKind {
  const field = SettingValueSchema.fields.find((f) => f.name === name.toLowerCase());
  if (field?.fieldKind !== "message") throw new Error(`SettingValue has no payload field for ${name}`);
  return {
    name,
    field,
    schema: field.message,
    defaults: options.defaults ?? {},
    validate: validate as SettingKind["validate"],
    beforeSave: options.beforeSave as SettingKind["beforeSave"],
    afterSave: options.afterSave as SettingKind["afterSave"],
  };
}

export const SETTINGS: readonly SettingKind[] = [
  kind("WORKSPACE_PROFILE", validateWorkspaceProfile, {
    defaults: defaults.WORKSPACE_PROFILE_DEFAULTS,
    beforeSave: keepFlagExternalUrl,
    afterSave: (before, after, tx, context) => reportOutsiders(before, after, tx, context.logger),
  }),
  kind("WORKSPACE_APPROVAL", validateWorkspaceApproval, { defaults: defaults.WORKSPACE_APPROVAL_DEFAULTS }),
  kind("APP_IM", validateAppIm),
  kind("AI", validateAi, { defaults: defaults.AI_DEFAULTS }),
  kind("DATA_CLASSIFICATION", validateDataClassification),
  kind("SEMANTIC_TYPES", validateSemanticTypes),
  kind("ENVIRONMENT", validateEnvironments, {
    defaults: defaults.ENVIRONMENT_DEFAULTS,
    beforeSave: (current, next, _context, tx) => refuseRemovingUsedEnvironments(current, next, tx),
  }),
  kind("EMAIL", validateEmail, { defaults: defaults.EMAIL_DEFAULTS }),
  kind("MAINTENANCE_WINDOW", validateMaintenanceWindow, { defaults: defaults.MAINTENANCE_WINDOW_DEFAULTS, afterSave: applyMaintenanceWindowChange }),
  kind("EMERGENCY_PAUSE", validateEmergencyPause, { defaults: defaults.EMERGENCY_PAUSE_DEFAULTS, beforeSave: stampPause, afterSave: applyEmergencyPauseSwitch }),
  kind("MONITORING", validateMonitoring),
  kind("SSO_GROUP_MAPPING", validateSsoGroupMapping),
];

/** Entries of these lists keep stored credentials by their key (contract §7.4). */
export const LIST_KEYS: ListKeys = new Map([
  ["svc.v1.AppImSetting.Im", "type"],
  ["svc.v1.MonitoringSetting.Webhook", "url"],
]);

const SYSTEM = "SYSTEM";
const NAME = /^settings\/([A-Z_]+)$/;

/** The setting a client names (settings/<NAME>); SYSTEM → permission_denied, anything else unknown → invalid_argument. */
export function settingNamed(resourceName: string): SettingKind {
  const name = NAME.exec(resourceName)?.[1];
  if (name === SYSTEM) throw permissionDenied("settings/SYSTEM is internal to the server");
  const found = SETTINGS.find((s) => s.name === name);
  if (!found) throw invalidArgument(`unknown setting "${resourceName}"; known: ${SETTINGS.map((s) => `settings/${s.name}`).join(", ")}`);
  return found;
}

export function settingKind(name: string): SettingKind {
  const found = SETTINGS.find((s) => s.name === name);
  if (!found) throw new Error(`no setting ${name}`);
  return found;
}
