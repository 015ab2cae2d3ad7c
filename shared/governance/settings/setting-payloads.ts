// The payload message of each SettingName (contract §7).
import type { DataClassificationSetting, SemanticTypesSetting } from "../../gen/svc/store/setting_data_pb.js";
import type { AiSetting, AppImSetting, EmailSetting, MonitoringSetting, SsoGroupMappingSetting } from "../../gen/svc/store/setting_integrations_pb.js";
import type { EmergencyPauseSetting, EnvironmentSetting, MaintenanceWindowSetting } from "../../gen/svc/store/setting_operations_pb.js";
import type { WorkspaceApprovalSetting, WorkspaceProfileSetting } from "../../gen/svc/store/setting_workspace_pb.js";

export interface SettingPayloads {
  WORKSPACE_PROFILE: WorkspaceProfileSetting;
  WORKSPACE_APPROVAL: WorkspaceApprovalSetting;
  APP_IM: AppImSetting;
  AI: AiSetting;
  DATA_CLASSIFICATION: DataClassificationSetting;
  SEMANTIC_TYPES: SemanticTypesSetting;
  ENVIRONMENT: EnvironmentSetting;
  EMAIL: EmailSetting;
  MAINTENANCE_WINDOW: MaintenanceWindowSetting;
  EMERGENCY_PAUSE: EmergencyPauseSetting;
  MONITORING: MonitoringSetting;
  SSO_GROUP_MAPPING: SsoGroupMappingSetting;
}

export type SettingName = keyof SettingPayloads;
