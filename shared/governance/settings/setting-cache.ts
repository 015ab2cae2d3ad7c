// Settings are read on hot paths (every sign-in page, every check) and change
// rarely. Each process keeps the stored payloads in memory and drops an entry
// when PostgreSQL announces a change (setting_changed, sent by a trigger in
// the writing transaction). While the announcement channel is down the cache
// is bypassed, so a reader never sees a value older than its last reconnect;
// and an entry is read again after MAX_AGE_MS whatever the channel says, which
// bounds staleness when announcements are delayed on a busy server.
import type { CommonQueryMethods } from "slonik";
import { listenToChannel, type Logger } from "../../platform/index.ts";
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

const CHANNEL = "setting_changed";
const MAX_AGE_MS = 5_000;

interface Entry {
  value: Record<string, unknown> | undefined;
  readAt: number;
}

export function createSettingCache(url: string, db: CommonQueryMethods, logger: Logger): SettingCache {
  const entries = new Map<string, Entry>();
  let generation = 0; // bumped on every invalidation; a read started earlier is not cached
  const invalidate = (name?: string) => {
    generation++;
    if (name === undefined) entries.clear();
    else entries.delete(name);
  };
  const channel = listenToChannel({
    url,
    channel: CHANNEL,
    applicationName: "svc settings",
    logger,
    onNotice: invalidate,
    onListening: () => invalidate(), // anything cached before LISTEN may be stale
    onLost: () => invalidate(),
    lostMessage: "settings change channel lost; reading settings from the store until it is back",
  });

  return {
    async get(name) {
      const entry = entries.get(name);
      if (channel.isListening() && entry && performance.now() - entry.readAt < MAX_AGE_MS) return entry.value;
      const started = generation;
      const readAt = performance.now();
      const value = await getStoredSetting(db, name);
      if (channel.isListening() && started === generation) entries.set(name, { value, readAt });
      return value;
    },
    close: () => channel.close(),
  };
}
