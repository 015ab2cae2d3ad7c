// WORKSPACE_PROFILE as the rest of the service reads it: the effective value
// (contract §7.2) with durations in milliseconds; `undefined` means unlimited.
import { parseDuration } from "../../platform/index.ts";
import { type WorkspaceProfileSetting, WorkspaceProfileSetting_DatabaseChangeMode } from "../../gen/svc/store/setting_workspace_pb.js";
import type { SettingReader } from "./setting-cache.ts";
import { effectiveSetting } from "./setting-value.ts";

export interface PasswordRestriction {
  minLength: number;
  requireNumber: boolean;
  requireLetter: boolean;
  requireUppercaseLetter: boolean;
  requireSpecialCharacter: boolean;
  requireResetPasswordForFirstLogin: boolean;
  passwordRotationMs: number | undefined;
}

export interface WorkspaceProfile {
  title: string;
  externalUrl: string;
  require2fa: boolean;
  disallowSignup: boolean;
  disallowPasswordSignin: boolean;
  allowEmailCodeSignin: boolean;
  enableAuditLogStdout: boolean;
  accessTokenDurationMs: number;
  refreshTokenDurationMs: number;
  inactiveSessionTimeoutMs: number | undefined;
  maximumRoleExpirationMs: number | undefined;
  passwordRestriction: PasswordRestriction;
  /** Creators may not approve their own issues, unless their project says otherwise (§11.3). */
  disallowSelfApprovalDefault: boolean;
  /** The workspace's e-mail domains, lower-case (enforced on writes by shared/user/identity-domain.ts). */
  domains: readonly string[];
  /** EDITOR lets the SQL Editor write (contract §14.1, §18.2); PIPELINE leaves changes to issues. */
  databaseChangeMode: "PIPELINE" | "EDITOR";
  /** The SQL Editor's statement timeout (§14.4). */
  queryTimeoutMs: number | undefined;
  /** The most bytes of a SQL Editor result (a Query's rows, an export), §14.4. */
  sqlResultSizeBytes: number;
  /** How long the query history is kept (§19.1). */
  queryHistoryRetentionMs: number | undefined;
  /** How long a sent or failed notification delivery is kept (§16.1). */
  notificationDeliveryRetentionMs: number | undefined;
}

// Read on every request: the profile built from one stored payload is kept
// for as long as the settings cache hands out that same payload object.
const built = new WeakMap<object, WorkspaceProfile>();
const NEVER_WRITTEN = {};

export async function readWorkspaceProfile(settings: SettingReader): Promise<WorkspaceProfile> {
  const stored = (await settings.get("WORKSPACE_PROFILE")) ?? NEVER_WRITTEN;
  let profile = built.get(stored);
  if (!profile) built.set(stored, (profile = buildProfile(stored)));
  return profile;
}

function buildProfile(stored: Record<string, unknown>): WorkspaceProfile {
  const value = effectiveSetting("WORKSPACE_PROFILE", stored);
  const restriction = value.passwordRestriction!;
  return {
    title: value.title!,
    externalUrl: value.externalUrl!,
    require2fa: value.require2fa!,
    disallowSignup: value.disallowSignup!,
    disallowPasswordSignin: value.disallowPasswordSignin!,
    allowEmailCodeSignin: value.allowEmailCodeSignin!,
    enableAuditLogStdout: value.enableAuditLogStdout!,
    accessTokenDurationMs: durationMs(value.accessTokenDuration)!,
    refreshTokenDurationMs: durationMs(value.refreshTokenDuration)!,
    inactiveSessionTimeoutMs: durationMs(value.inactiveSessionTimeout),
    maximumRoleExpirationMs: durationMs(value.maximumRoleExpiration),
    passwordRestriction: {
      minLength: restriction.minLength!,
      requireNumber: restriction.requireNumber!,
      requireLetter: restriction.requireLetter!,
      requireUppercaseLetter: restriction.requireUppercaseLetter!,
      requireSpecialCharacter: restriction.requireSpecialCharacter!,
      requireResetPasswordForFirstLogin: restriction.requireResetPasswordForFirstLogin!,
      passwordRotationMs: durationMs(restriction.passwordRotation),
    },
    disallowSelfApprovalDefault: value.disallowSelfApprovalDefault!,
    domains: workspaceDomains(value),
    databaseChangeMode: value.databaseChangeMode === WorkspaceProfileSetting_DatabaseChangeMode.EDITOR ? "EDITOR" : "PIPELINE",
    queryTimeoutMs: durationMs(value.queryTimeout),
    sqlResultSizeBytes: Number(value.sqlResultSize),
    queryHistoryRetentionMs: durationMs(value.queryHistoryRetention),
    notificationDeliveryRetentionMs: durationMs(value.notificationDeliveryRetention),
  };
}

/** WORKSPACE_PROFILE.domains as addresses are compared with them: trimmed, lower-case. */
export function workspaceDomains(profile: WorkspaceProfileSetting): string[] {
  return profile.domains.map((domain) => domain.trim().toLowerCase());
}

export type SignInOptions = Pick<
  WorkspaceProfile,
  "title" | "externalUrl" | "require2fa" | "disallowSignup" | "disallowPasswordSignin" | "allowEmailCodeSignin"
>;

/** The sign-in facts a sign-in page shows. */
export async function getSignInOptions(settings: SettingReader): Promise<SignInOptions> {
  const { title, externalUrl, require2fa, disallowSignup, disallowPasswordSignin, allowEmailCodeSignin } =
    await readWorkspaceProfile(settings);
  return { title, externalUrl, require2fa, disallowSignup, disallowPasswordSignin, allowEmailCodeSignin };
}

/** A stored duration in milliseconds; zero or unreadable → undefined (unlimited). */
function durationMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    const ms = parseDuration(value, "duration");
    return ms > 0 ? ms : undefined;
  } catch {
    return undefined;
  }
}
