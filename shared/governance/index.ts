// The governance capability's public surface: what other capabilities and the
// processes use. Everything else under shared/governance/ is private to it.
export { ANONYMOUS_ACTOR, AuditAction, SCIM_ACTOR, type Severity, SYSTEM_ACTOR } from "./audit/actions.ts";
export { type AuditExportFormat, exportAuditLogs } from "./audit/audit-export.ts";
export { auditRecordJson } from "./audit/audit-json.ts";
export { parseAuditQuery, searchAuditLogs } from "./audit/audit-search.ts";
export { type AuditEntry, type AuditRecord, recordAudit } from "./audit/audit.ts";
export { type AuditAtEnd, type AuditFacts, type CallAudit, newAuditAtEnd, newCallAudit } from "./audit/call-audit.ts";
export { type AuditPublisher, createAuditMirror } from "./audit/stdout-mirror.ts";
export { checkSecretKey } from "./secret-key/key-check.ts";
export { rotateSecretKey } from "./secret-key/rotation.ts";
export { smtpConfig } from "./settings/email.ts";
export { emergencyPauseReason, refuseDuringEmergencyPause } from "./settings/emergency-pause.ts";
export { type Environment, environmentName, readEnvironments } from "./settings/environments.ts";
export { overlayExternalUrl, withExternalUrlFlag } from "./settings/external-url-flag.ts";
export {
  createSettingCache,
  type SettingCache,
  type SettingReader,
  storedSettings,
  storedSettingsForShare,
} from "./settings/setting-cache.ts";
export { type SettingKind, settingKind, settingNamed, SETTINGS } from "./settings/setting-catalog.ts";
export type { SettingName, SettingPayloads } from "./settings/setting-payloads.ts";
export { type SaveContext, settingRule, type SettingRule, type SettingRules } from "./settings/setting-rules.ts";
export { effectiveSetting, effectiveValue, readSetting } from "./settings/setting-value.ts";
export { findSettingRows, initWorkspaceProfile, type SettingRow } from "./settings/setting.store.ts";
export { sendTestEmail } from "./settings/test-email.ts";
export { type PayloadView, updateSetting } from "./settings/update-setting.ts";
export { fieldError, requireEnum, requireText } from "./settings/validation/checks.ts";
export {
  getSignInOptions,
  type PasswordRestriction,
  readWorkspaceProfile,
  workspaceDomains,
  type WorkspaceProfile,
} from "./settings/workspace-profile.ts";
