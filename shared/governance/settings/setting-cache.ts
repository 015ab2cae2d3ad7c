// Settings are read on hot paths (every sign-in page, every check) and change
// rarely. Each process keeps the stored payloads in memory and drops an entry
// when PostgreSQL announces a change (setting_changed, sent by a trigger in
// the writing transaction); the notice cache's rules bound staleness.
import type { CommonQueryMethods } from "slonik";
import { createNoticeCache, type Logger } from "../../platform/index.ts";
import { getStoredSetting, getStoredSettingForShare } from "./setting.store.ts";

export interface SettingReader {
  /** The stored payload of a setting, or undefined when never written. */
  get(name: string): Promise<Record<string, unknown> | undefined>;
}

/** Reads the store directly (inside a transaction, or where no cache runs). */
export function storedSettings(db: CommonQueryMethods): SettingReader {
  return { get: (name) => getStoredSetting(db, name) };
}

/**
 * Reads the store under share locks held until the transaction ends: a write
 * of a setting read waits for the transaction, and the read for a write under way.
 */
export function storedSettingsForShare(tx: CommonQueryMethods): SettingReader {
  return { get: (name) => getStoredSettingForShare(tx, name) };
}

export interface SettingCache extends SettingReader {
  close(): Promise<void>;
}

const MAX_AGE_MS = 5_000;

export function createSettingCache(url: string, db: CommonQueryMethods, logger: Logger): SettingCache {
  const cache = createNoticeCache({
    url,
    channel: "setting_changed",
    applicationName: "svc settings",
    logger,
    maxAgeMs: MAX_AGE_MS,
    onNotice: (name) => payloads.drop((key) => key === name), // notices come after the part exists
    lostMessage: "settings change channel lost; reading settings from the store until it is back",
  });
  const payloads = cache.part<Record<string, unknown> | undefined>();
  return {
    get: (name) => payloads.get(name, () => getStoredSetting(db, name)),
    close: () => cache.close(),
  };
}
