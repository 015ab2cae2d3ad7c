// Settings are read on hot paths (every sign-in page, every check) and change
// rarely. Each process keeps the stored payloads in memory and drops an entry
// when PostgreSQL announces a change (setting_changed, sent by a trigger in
// the writing transaction). While the announcement channel is down the cache
// is bypassed, so a reader never sees a value older than its last reconnect;
// and an entry is read again after MAX_AGE_MS whatever the channel says, which
// bounds staleness when announcements are delayed on a busy server.
import pg from "pg";
import type { CommonQueryMethods } from "slonik";
import type { Logger } from "../platform/logger.ts";
import { getStoredSetting } from "./setting.store.ts";

export interface SettingReader {
  /** The stored payload of a setting, or undefined when never written. */
  get(name: string): Promise<Record<string, unknown> | undefined>;
}

/** Reads the store directly (inside a transaction, or where no cache runs). */
export function storedSettings(db: CommonQueryMethods): SettingReader {
  return { get: (name) => getStoredSetting(db, name) };
}

export interface SettingCache extends SettingReader {
  close(): Promise<void>;
}

const CHANNEL = "setting_changed";
const RECONNECT_MS = 1_000;
const MAX_AGE_MS = 5_000;

interface Entry {
  value: Record<string, unknown> | undefined;
  readAt: number;
}

export function createSettingCache(url: string, db: CommonQueryMethods, logger: Logger): SettingCache {
  const entries = new Map<string, Entry>();
  let generation = 0; // bumped on every invalidation; a read started earlier is not cached
  let listener: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const invalidate = (name?: string) => {
    generation++;
    if (name === undefined) entries.clear();
    else entries.delete(name);
  };

  const listen = async () => {
    const client = new pg.Client({ connectionString: url, application_name: "svc settings" });
    const reconnect = (error: Error) => {
      if (listener !== client) return;
      listener = undefined;
      invalidate();
      if (!closed) logger.warn({ error }, "settings change channel lost; reading settings from the store until it is back");
      void client.end().catch(() => undefined);
      if (!closed) timer = setTimeout(() => void listen(), RECONNECT_MS);
    };
    client.on("error", reconnect);
    client.on("notification", (message) => invalidate(message.payload));
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      if (closed) return void (await client.end());
      invalidate(); // anything cached before LISTEN may be stale
      listener = client;
    } catch (error) {
      client.removeAllListeners("error");
      client.on("error", () => undefined);
      await client.end().catch(() => undefined);
      if (!closed) timer = setTimeout(() => void listen(), RECONNECT_MS);
      logger.debug({ error }, "settings change channel not available yet");
    }
  };
  void listen();

  return {
    async get(name) {
      const entry = entries.get(name);
      if (listener && entry && performance.now() - entry.readAt < MAX_AGE_MS) return entry.value;
      const started = generation;
      const readAt = performance.now();
      const value = await getStoredSetting(db, name);
      if (listener && started === generation) entries.set(name, { value, readAt });
      return value;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
