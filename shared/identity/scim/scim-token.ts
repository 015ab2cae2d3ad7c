// The directory's credential (contract §5.4): WORKSPACE_PROFILE's
// directory_sync_token, sealed at rest, presented as `Authorization: Bearer
// <token>`. Both sides are compared as SHA-256 digests with timingSafeEqual,
// so the time taken tells nothing of the token, its length included. The
// digest is kept for as long as the setting cache hands out the same stored
// payload, so the token is opened once per change, not on every request.
import { createHash, timingSafeEqual } from "node:crypto";
import type { SecretBox } from "../../platform/index.ts";
import { effectiveSetting, type SettingReader } from "../../governance/index.ts";

export type DirectoryAccess =
  | { kind: "granted" }
  /** No token is set: directory sync is off. */
  | { kind: "off" }
  | { kind: "refused"; reason: string };

const NEVER_WRITTEN = {};
const digests = new WeakMap<object, Buffer | null>();

export async function directoryAccess(settings: SettingReader, secrets: SecretBox, authorization: string | undefined): Promise<DirectoryAccess> {
  const expected = await tokenDigest(settings, secrets);
  if (!expected) return { kind: "off" };
  const presented = bearerToken(authorization);
  if (presented === undefined) return { kind: "refused", reason: "a bearer token is required: Authorization: Bearer <directory sync token>" };
  if (!timingSafeEqual(sha256(presented), expected)) return { kind: "refused", reason: "the bearer token is not the directory sync token" };
  return { kind: "granted" };
}

async function tokenDigest(settings: SettingReader, secrets: SecretBox): Promise<Buffer | null> {
  const stored = (await settings.get("WORKSPACE_PROFILE")) ?? NEVER_WRITTEN;
  let digest = digests.get(stored);
  if (digest === undefined) {
    const sealed = effectiveSetting("WORKSPACE_PROFILE", stored).directorySyncToken;
    digest = sealed ? sha256(secrets.open(sealed)) : null;
    digests.set(stored, digest);
  }
  return digest;
}

function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1];
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
