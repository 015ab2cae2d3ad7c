// --external-url wins over WORKSPACE_PROFILE.external_url (contract §15.8).
// The flag is laid over the stored payload where the service reads settings,
// so every reader — session cookies, SSO callbacks, reset links, the
// actuator, GetSetting — sees one effective URL.
import type { SettingReader } from "./setting-cache.ts";

const PROFILE = "WORKSPACE_PROFILE";

/** The stored WORKSPACE_PROFILE payload with the flag's URL, when the flag is given. */
export function overlayExternalUrl(stored: Record<string, unknown> | undefined, flag: string | undefined): Record<string, unknown> | undefined {
  return flag ? { ...stored, externalUrl: flag } : stored;
}

/** A reader whose WORKSPACE_PROFILE carries the flag's URL; the same object for as long as the stored one is the same. */
export function withExternalUrlFlag(reader: SettingReader, flag: string | undefined): SettingReader {
  if (!flag) return reader;
  const overlaid = new WeakMap<object, Record<string, unknown>>();
  const neverWritten = overlayExternalUrl(undefined, flag);
  return {
    async get(name) {
      const stored = await reader.get(name);
      if (name !== PROFILE) return stored;
      if (!stored) return neverWritten;
      let value = overlaid.get(stored);
      if (!value) overlaid.set(stored, (value = overlayExternalUrl(stored, flag)!));
      return value;
    },
  };
}
