// Leader election with a PostgreSQL session advisory lock on a dedicated
// connection (contract §15.7): the holder runs the periodic and
// non-idempotent runners; the others retry every second.
import pg from "pg";
import { LEADER_LOCK } from "./locks.ts";
import type { Logger } from "./logger.ts";

export interface LeaderOptions {
  url: string;
  logger: Logger;
  /** Called when this process becomes the leader; returns how to stop what it started. */
  onElected: () => Promise<() => Promise<void>>;
  retryMs?: number;
  healthCheckMs?: number;
}

export interface Leadership {
  isLeader(): boolean;
  stop(): Promise<void>;
}

export function startLeaderElection(options: LeaderOptions): Leadership {
  const retryMs = options.retryMs ?? 1_000;
  const healthCheckMs = options.healthCheckMs ?? 5_000;
  let stopped = false;
  let client: pg.Client | undefined;
  let stopRunners: (() => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;

  // One pending step at a time: a new schedule replaces the old one.
  const schedule = (ms: number, step: () => Promise<void>) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(() => void step(), ms);
  };

  const stepDown = async (reason: string) => {
    if (!stopRunners) return;
    options.logger.warn({ reason }, "leadership lost; stopping leader runners");
    const stop = stopRunners;
    stopRunners = undefined;
    await stop().catch((error: unknown) => options.logger.error({ error }, "leader runners did not stop cleanly"));
  };

  const dropClient = async (reason: string) => {
    const old = client;
    client = undefined;
    await stepDown(reason);
    await old?.end().catch(() => undefined);
  };

  const tryAcquire = async () => {
    try {
      client ??= await connect(options.url, (error) => void dropClient(`leader connection failed: ${error.message}`).then(() => schedule(retryMs, tryAcquire)));
      const { rows } = await client.query<{ acquired: boolean }>("select pg_try_advisory_lock($1) as acquired", [LEADER_LOCK]);
      if (stopped) return void (await dropClient("shutting down")); // the lock goes with the connection
      if (!rows[0]?.acquired) return schedule(retryMs, tryAcquire);
      options.logger.info("this process is the leader: running the background runners");
      stopRunners = await options.onElected();
      if (stopped) return void (await dropClient("shutting down"));
      schedule(healthCheckMs, checkHealth);
    } catch (error) {
      await dropClient(`could not take the leader lock: ${(error as Error).message}`);
      schedule(retryMs, tryAcquire);
    }
  };

  const checkHealth = async () => {
    try {
      await client!.query("select 1");
      schedule(healthCheckMs, checkHealth);
    } catch (error) {
      await dropClient(`leader connection check failed: ${(error as Error).message}`);
      schedule(retryMs, tryAcquire);
    }
  };

  void tryAcquire();
  return {
    isLeader: () => stopRunners !== undefined,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await dropClient("shutting down");
    },
  };
}

async function connect(url: string, onError: (error: Error) => void): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, keepAlive: true, keepAliveInitialDelayMillis: 10_000, application_name: "svc leader" });
  client.on("error", onError);
  await client.connect();
  // The server notices a peer that vanished without a FIN within ~25 s.
  await client.query("set tcp_keepalives_idle = 10; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3");
  return client;
}
