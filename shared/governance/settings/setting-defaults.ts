// Default payloads (contract §7, the specification's tables): what a setting
// reads as until it is written. Stored fields are laid over these.
import type { JsonObject } from "@bufbuild/protobuf";

export const WORKSPACE_PROFILE_DEFAULTS: JsonObject = {
  title: "Workspace",
  externalUrl: "",
  disallowSignup: false,
  require2fa: false,
  refreshTokenDuration: "604800s",
  accessTokenDuration: "3600s",
  inactiveSessionTimeout: "0s",
  maximumRoleExpiration: "0s",
  enforceIdentityDomain: false,
  databaseChangeMode: "PIPELINE",
  disallowPasswordSignin: false,
  enableAuditLogStdout: false,
  watermark: false,
  passwordRestriction: {
    minLength: 12,
    requireNumber: true,
    requireLetter: true,
    requireUppercaseLetter: true,
    requireSpecialCharacter: true,
    requireResetPasswordForFirstLogin: true,
    passwordRotation: "7776000s",
  },
  sqlResultSize: "104857600",
  queryTimeout: "0s",
  allowEmailCodeSignin: false,
  disallowSelfApprovalDefault: false,
  queryHistoryRetention: "7776000s",
  notificationDeliveryRetention: "2592000s",
};

export const WORKSPACE_APPROVAL_DEFAULTS: JsonObject = {
  rules: [
    {
      source: "CHANGE_DATABASE",
      condition: { expression: 'resource.environment_id == "prod"', title: "Changes to prod", description: "" },
      template: { title: "Project owner approval", description: "", steps: [{ roles: ["roles/projectOwner"] }] },
    },
  ],
};

export const ENVIRONMENT_DEFAULTS: JsonObject = {
  environments: [
    { id: "test", title: "Test", color: "#4f8a10", protected: false, rolloutPolicy: "AUTOMATIC" },
    { id: "prod", title: "Prod", color: "#d8000c", protected: true, rolloutPolicy: "MANUAL" },
  ],
};

export const MAINTENANCE_WINDOW_DEFAULTS: JsonObject = { enabled: false, timezone: "UTC" };

export const EMERGENCY_PAUSE_DEFAULTS: JsonObject = { enabled: false, reason: "" };

export const AI_DEFAULTS: JsonObject = { enabled: false };

export const EMAIL_DEFAULTS: JsonObject = {
  from: "",
  fromName: "",
  smtp: { host: "", port: 587, username: "", encryption: "STARTTLS", authentication: "PLAIN" },
};
