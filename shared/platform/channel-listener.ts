// One PostgreSQL LISTEN connection that stays up: it reconnects a second
// after it is lost, and says when it listens again, since a notice may have
// been missed while it was down. The settings cache, the watch streams' change
// feed and the worker's task-run cancel watch each keep one per process.
import pg from "pg";
import type { Logger } from "./logger.ts";

export interface ChannelOptions {
  url: string;
  channel: string;
  /** How the connection names itself in pg_stat_activity. */
  applicationName: string;
  logger: Logger;
  /** Each notice's payload. */
  onNotice(payload: string): void;
  /** The connection listens (first time, or again after a loss): notices may have been missed before. */
  onListening(): void;
  /** The connection was lost: notices are missed until onListening. */
  onLost?(): void;
  /** Logged (warn) when the connection is lost, e.g. "settings change channel lost; …". */
  lostMessage: string;
}

export interface ChannelListener {
  isListening(): boolean;
  /**
   * Resolves once every notice committed before the call has reached
   * onNotice: a query on the listening connection, which PostgreSQL answers
   * after the notices already signalled to it. Callers waiting at once share
   * one query sent after they asked. Rejects when the connection is down.
   */
  sync(): Promise<void>;
  close(): Promise<void>;
}

const RECONNECT_MS = 1_000;
const SYNC_TIMEOUT_MS = 2_000;

export function listenToChannel(options: ChannelOptions): ChannelListener {
  let listener: pg.Client | undefined;
  let loseListener: ((error: Error) => void) | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const retry = () => {
    if (!closed) timer = setTimeout(() => void listen(), RECONNECT_MS);
  };

  const listen = async () => {
    const client = new pg.Client({ connectionString: options.url, application_name: options.applicationName, keepAlive: true });
    const lose = (error: Error) => {
      if (listener !== client) return;
      listener = undefined;
      options.onLost?.();
      if (!closed) options.logger.warn({ error }, options.lostMessage);
      void client.end().catch(() => undefined);
      retry();
    };
    client.on("error", lose);
    client.on("end", () => lose(new Error("the connection ended")));
    client.on("notification", (message) => {
      if (message.payload !== undefined) options.onNotice(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${options.channel}`);
      if (closed) return void (await client.end());
      listener = client;
      loseListener = lose;
      options.onListening();
    } catch (error) {
      client.removeAllListeners("error");
      client.removeAllListeners("end");
      client.on("error", () => undefined);
      await client.end().catch(() => undefined);
      retry();
      options.logger.debug({ error, channel: options.channel }, "notice channel not available yet");
    }
  };
  void listen();

  let inFlight: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const startSync = (): Promise<void> => {
    const run = roundTrip().finally(() => {
      if (inFlight === run) inFlight = undefined;
    });
    inFlight = run;
    return run;
  };
  const roundTrip = async () => {
    const client = listener;
    if (!client) throw new Error(`not listening on ${options.channel}`);
    let timeout: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => reject(new Error(`no answer on the ${options.channel} channel within ${SYNC_TIMEOUT_MS} ms`)), SYNC_TIMEOUT_MS);
    });
    try {
      await Promise.race([client.query("select 1"), late]);
    } catch (error) {
      if (listener === client) loseListener?.(error as Error);
      throw error;
    } finally {
      clearTimeout(timeout);
    }
  };

  return {
    isListening: () => listener !== undefined,
    sync() {
      if (!inFlight) return startSync();
      // The query in flight may have been sent before this caller's change committed: wait for the next one.
      queued ??= inFlight
        .catch(() => undefined)
        .then(() => {
          queued = undefined;
          return startSync();
        });
      return queued;
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
