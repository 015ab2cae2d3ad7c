// Every SettingName (contract §7): its payload type, the key of the payload
// in Setting.value, its defaults and its validation. SYSTEM is internal and
// never reaches clients (§7.13).
import type { DescMessage, JsonObject, Message } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { DataClassificationSettingSchema, SemanticTypesSettingSchema } from "../gen/svc/v1/setting_data_pb.js";
import {
  AiSettingSchema,
  AppImSettingSchema,
  EmailSettingSchema,
  MonitoringSettingSchema,
  SsoGroupMappingSettingSchema,
} from "../gen/svc/v1/setting_integrations_pb.js";
import { EmergencyPauseSettingSchema, EnvironmentSettingSchema, MaintenanceWindowSettingSchema } from "../gen/svc/v1/setting_operations_pb.js";
import { WorkspaceApprovalSettingSchema, WorkspaceProfileSettingSchema } from "../gen/svc/v1/setting_workspace_pb.js";
import { invalidArgument, permissionDenied } from "../platform/errors.ts";
import type { ListKeys } from "./setting-secrets.ts";
import * as defaults from "./setting-defaults.ts";
import { validateDataClassification, validateSemanticTypes } from "./validation/data.ts";
import { validateEnvironments } from "./validation/environment.ts";
import { validateAi, validateAppIm, validateEmail, validateMonitoring, validateSsoGroupMapping } from "./validation/integrations.ts";
import { validateEmergencyPause, validateMaintenanceWindow } from "./validation/schedule.ts";
import { validateWorkspaceApproval } from "./validation/workspace-approval.ts";
import { validateWorkspaceProfile } from "./validation/workspace-profile.ts";

export interface ValidationContext {
  roleExists(role: string): Promise<boolean>;
}

export interface SettingKind {
  name: string;
  /** The payload's field in SettingValue (and, in lowerCamelCase, its JSON key). */
  valueKey: string;
  schema: DescMessage;
  defaults: JsonObject;
  /** Checks a payload about to be stored; may normalize it (durations). */
  validate(value: Message, context: ValidationContext): void | Promise<void>;
}

function kind<M extends Message>(
  name: string,
  valueKey: string,
  schema: GenMessage<M>,
  validate: (value: M, context: ValidationContext) => void | Promise<void>,
  defaultValue: JsonObject = {},
): SettingKind {
  return { name, valueKey, schema, defaults: defaultValue, validate: validate as SettingKind["validate"] };
}

export const SETTINGS: readonly SettingKind[] = [
  kind("WORKSPACE_PROFILE", "workspace_profile", WorkspaceProfileSettingSchema, validateWorkspaceProfile, defaults.WORKSPACE_PROFILE_DEFAULTS),
  kind("WORKSPACE_APPROVAL", "workspace_approval", WorkspaceApprovalSettingSchema, (v, c) => validateWorkspaceApproval(v, c.roleExists), defaults.WORKSPACE_APPROVAL_DEFAULTS),
  kind("APP_IM", "app_im", AppImSettingSchema, validateAppIm),
  kind("AI", "ai", AiSettingSchema, validateAi, defaults.AI_DEFAULTS),
  kind("DATA_CLASSIFICATION", "data_classification", DataClassificationSettingSchema, validateDataClassification),
  kind("SEMANTIC_TYPES", "semantic_types", SemanticTypesSettingSchema, validateSemanticTypes),
  kind("ENVIRONMENT", "environment", EnvironmentSettingSchema, validateEnvironments, defaults.ENVIRONMENT_DEFAULTS),
  kind("EMAIL", "email", EmailSettingSchema, validateEmail, defaults.EMAIL_DEFAULTS),
  kind("MAINTENANCE_WINDOW", "maintenance_window", MaintenanceWindowSettingSchema, validateMaintenanceWindow, defaults.MAINTENANCE_WINDOW_DEFAULTS),
  kind("EMERGENCY_PAUSE", "emergency_pause", EmergencyPauseSettingSchema, validateEmergencyPause, defaults.EMERGENCY_PAUSE_DEFAULTS),
  kind("MONITORING", "monitoring", MonitoringSettingSchema, validateMonitoring),
  kind("SSO_GROUP_MAPPING", "sso_group_mapping", SsoGroupMappingSettingSchema, (v, c) => validateSsoGroupMapping(v, c.roleExists)),
];

/** Entries of these lists keep stored credentials by their key (contract §7.4). */
export const LIST_KEYS: ListKeys = new Map([
  ["svc.v1.AppImSetting.Im", "type"],
  ["svc.v1.MonitoringSetting.Webhook", "url"],
]);

const SYSTEM = "SYSTEM";
const NAME = /^settings\/([A-Z_]+)$/;

/** The setting a client names (settings/<NAME>); SYSTEM → permission_denied, unknown → invalid_argument. */
export function settingNamed(resourceName: string): SettingKind {
  const name = NAME.exec(resourceName)?.[1] ?? resourceName;
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
