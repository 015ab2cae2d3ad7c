// An in-process cache of store reads that PostgreSQL keeps honest: writers
// announce changes on a channel (a trigger's pg_notify, sent at commit), and
// the cache drops what a notice names. Three rules keep a reader from seeing
// a stale value longer than a notice takes to arrive:
// - while the channel is down the cache is bypassed (notices may be missed),
//   and everything is dropped when it listens again;
// - a read that started before a drop is not kept (it may predate the change);
// - an entry is read again after maxAgeMs whatever the channel says, which
//   bounds staleness when a notice is delayed or lost.
// Callers that miss the same key at once share one read. A strict part
// instead syncs with its channel before it answers from memory, so that a
// change committed before the request arrived is never served stale (the
// writer's client sees its commit only after PostgreSQL has signalled the
// listeners), and each miss reads for itself.
import { listenToChannel } from "./channel-listener.ts";
import type { Logger } from "./logger.ts";

export interface CachePart<V> {
  /** The cached value of `key`, or `load()`'s, kept when it is cacheable. */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** Drops every entry, or those `match` selects. */
  drop(match?: (key: string, value: V) => boolean): void;
}

interface Entry<V> {
  value: V;
  readAt: number;
}

export interface PartOptions<V> {
  /** A value not worth keeping (e.g. "no such row": unknown keys would fill memory). */
  keep?: (value: V) => boolean;
  /** Entries beyond this many evict the oldest. */
  maxEntries?: number;
  /** Sync with the channel before each answer from memory (one shared round trip). */
  strict?: boolean;
}

export interface NoticeCache {
  /** A part of the cache: its own keys and values, dropped with the others when the channel is down. */
  part<V>(options?: PartOptions<V>): CachePart<V>;
  close(): Promise<void>;
}

export interface NoticeCacheOptions {
  url: string;
  channel: string;
  applicationName: string;
  logger: Logger;
  maxAgeMs: number;
  /** Each notice's payload: drop what it names (through the parts). */
  onNotice(payload: string): void;
  /** Logged (warn) when the channel is lost. */
  lostMessage: string;
}

const DEFAULT_MAX_ENTRIES = 10_000;

export function createNoticeCache(options: NoticeCacheOptions): NoticeCache {
  const parts: CachePart<unknown>[] = [];
  const dropAll = () => {
    for (const part of parts) part.drop();
  };
  const channel = listenToChannel({
    url: options.url,
    channel: options.channel,
    applicationName: options.applicationName,
    logger: options.logger,
    onNotice: (payload) => options.onNotice(payload),
    onListening: dropAll, // anything kept before LISTEN may be stale
    onLost: dropAll,
    lostMessage: options.lostMessage,
  });

  return {
    part<V>(partOptions: PartOptions<V> = {}) {
      const sync = partOptions.strict ? () => channel.sync() : undefined;
      const part = cachePart<V>(options.maxAgeMs, partOptions, () => channel.isListening(), sync);
      parts.push(part as CachePart<unknown>);
      return part;
    },
    close: () => channel.close(),
  };
}

function cachePart<V>(
  maxAgeMs: number,
  options: PartOptions<V>,
  listening: () => boolean,
  sync: (() => Promise<void>) | undefined,
): CachePart<V> {
  const entries = new Map<string, Entry<V>>();
  const reading = new Map<string, { value: Promise<V>; generation: number }>();
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  let generation = 0; // bumped on every drop; a read started earlier is not kept

  const read = async (key: string, load: () => Promise<V>): Promise<V> => {
    const started = generation;
    const readAt = performance.now();
    const value = await load();
    if (started === generation && listening() && (options.keep?.(value) ?? true)) {
      entries.delete(key); // re-inserted last: the Map's order is the eviction order
      entries.set(key, { value, readAt });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    }
    return value;
  };

  const fresh = (entry: Entry<V> | undefined): entry is Entry<V> =>
    entry !== undefined && listening() && performance.now() - entry.readAt < maxAgeMs;
  const synced = async (key: string, entry: Entry<V>, load: () => Promise<V>): Promise<V> => {
    try {
      await sync!();
    } catch {
      return load(); // the channel is down: the store answers
    }
    return entries.get(key) === entry && listening() ? entry.value : miss(key, load);
  };

  const miss = (key: string, load: () => Promise<V>): Promise<V> => {
    if (sync) return read(key, load); // a read already under way may predate the change this caller saw commit
    const shared = reading.get(key);
    if (shared && shared.generation === generation) return shared.value;
    const value = read(key, load);
    reading.set(key, { value, generation });
    const settled = () => void (reading.get(key)?.value === value && reading.delete(key));
    value.then(settled, settled);
    return value;
  };

  return {
    get(key, load) {
      const entry = entries.get(key);
      if (!fresh(entry)) return miss(key, load);
      return sync ? synced(key, entry, load) : Promise.resolve(entry.value);
    },
    drop(match) {
      generation++;
      if (!match) return entries.clear();
      for (const [key, entry] of entries) if (match(key, entry.value)) entries.delete(key);
    },
  };
}
