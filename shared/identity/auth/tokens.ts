// Opaque credentials: 256 random bits, URL-safe, kept only as SHA-256 hashes
// (contract §4.3). The prefix tells a reader which kind a token is.
import { createHash, randomBytes } from "node:crypto";

export type TokenKind = "ACCESS" | "REFRESH";

const PREFIX: Record<TokenKind, string> = { ACCESS: "sat_", REFRESH: "srt_" };
const SERVICE_KEY_PREFIX = "ssk_";
const MFA_TEMP_TOKEN_PREFIX = "smt_";
const PASSWORD_RESET_TOKEN_PREFIX = "spr_";

function opaqueToken(prefix: string): string {
  return prefix + randomBytes(32).toString("base64url");
}

export function newToken(kind: TokenKind): string {
  return opaqueToken(PREFIX[kind]);
}

/** A service account's API key (contract §5.1); shown once, stored hashed. */
export function newServiceKey(): string {
  return opaqueToken(SERVICE_KEY_PREFIX);
}

/** The token between the password step and the second factor of a sign-in (contract §4.2). */
export function newMfaTempToken(): string {
  return opaqueToken(MFA_TEMP_TOKEN_PREFIX);
}

/** The token of a password-reset link (contract §5.3). */
export function newPasswordResetToken(): string {
  return opaqueToken(PASSWORD_RESET_TOKEN_PREFIX);
}

export function isServiceKey(token: string): boolean {
  return token.startsWith(SERVICE_KEY_PREFIX);
}

/** The stored form of a random secret (a token, a code): its SHA-256 hash. */
export function tokenHash(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}
