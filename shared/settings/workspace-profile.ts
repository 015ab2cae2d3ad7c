// WORKSPACE_PROFILE as the rest of the service reads it: the stored fields
// with the specification's defaults filled in (contract §7.2). Durations are
// milliseconds; `undefined` means unlimited.
import { parseDuration } from "../platform/duration.ts";
import type { SettingReader } from "./setting-cache.ts";

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
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Stored = Record<string, unknown>;

export async function readWorkspaceProfile(settings: SettingReader): Promise<WorkspaceProfile> {
  const stored = (await settings.get("WORKSPACE_PROFILE")) ?? {};
  return {
    title: text(stored, "title", "Workspace"),
    externalUrl: text(stored, "externalUrl", ""),
    require2fa: flag(stored, "require2fa", false),
    disallowSignup: flag(stored, "disallowSignup", false),
    disallowPasswordSignin: flag(stored, "disallowPasswordSignin", false),
    allowEmailCodeSignin: flag(stored, "allowEmailCodeSignin", false),
    enableAuditLogStdout: flag(stored, "enableAuditLogStdout", false),
    accessTokenDurationMs: duration(stored, "accessTokenDuration") ?? HOUR,
    refreshTokenDurationMs: duration(stored, "refreshTokenDuration") ?? 7 * DAY,
    inactiveSessionTimeoutMs: duration(stored, "inactiveSessionTimeout"),
    maximumRoleExpirationMs: duration(stored, "maximumRoleExpiration"),
    passwordRestriction: passwordRestriction((stored["passwordRestriction"] ?? {}) as Stored),
  };
}

function passwordRestriction(stored: Stored): PasswordRestriction {
  return {
    minLength: typeof stored["minLength"] === "number" ? stored["minLength"] : 12,
    requireNumber: flag(stored, "requireNumber", true),
    requireLetter: flag(stored, "requireLetter", true),
    requireUppercaseLetter: flag(stored, "requireUppercaseLetter", true),
    requireSpecialCharacter: flag(stored, "requireSpecialCharacter", true),
    requireResetPasswordForFirstLogin: flag(stored, "requireResetPasswordForFirstLogin", true),
    passwordRotationMs: "passwordRotation" in stored ? duration(stored, "passwordRotation") : 90 * DAY,
  };
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

function text(stored: Stored, key: string, fallback: string): string {
  const value = stored[key];
  return typeof value === "string" ? value : fallback;
}

function flag(stored: Stored, key: string, fallback: boolean): boolean {
  const value = stored[key];
  return typeof value === "boolean" ? value : fallback;
}

/** A stored duration in milliseconds; absent, zero or unreadable → undefined (unlimited or default). */
function duration(stored: Stored, key: string): number | undefined {
  const value = stored[key];
  if (typeof value !== "string") return undefined;
  try {
    const ms = parseDuration(value, key);
    return ms > 0 ? ms : undefined;
  } catch {
    return undefined;
  }
}
