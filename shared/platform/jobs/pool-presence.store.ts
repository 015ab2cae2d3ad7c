// Whether a graphile-worker pool still lives (contract §12.6). A pool locks
// the jobs it runs with its pool id (locked_by), and a pool whose process
// died leaves them locked for 4 hours; graphile-worker's pools take no lock a
// survivor could test. So each worker process holds, on a connection of its
// own, a session lock keyed by each of its pools' ids from the moment the
// pool is created (before it asks for a job), and the leader's reconciler
// unlocks the jobs of pools whose lock is free: their process is gone, and
// its connection with it, or the pool has stopped and let its lock go (a pool
// graphile-worker stopped by itself leaves its jobs locked). Jobs locked less than a grace period ago are left
// alone, as their pool may be taking its lock at that moment.
import pg from "pg";
import { sql } from "slonik";
import { z } from "zod";
import type { Db } from "../db.ts";
import { withTransaction } from "../transaction.ts";
import { JOB_POOL_LOCK_CLASS } from "../locks.ts";
import { SESSION_KEEPALIVE_OPTIONS } from "../session-keepalive.ts";
import type { Logger } from "../logger.ts";

const RECONNECT_MS = 1_000;
const GRACE_SECONDS = 10;

/** The locks of this process's pools, held on one connection (taken again after a reconnect). */
export class PoolPresence {
  private readonly url: string;
  private readonly logger: Logger;
  private readonly pools = new Set<string>();
  private client: pg.Client | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;

  private constructor(url: string, logger: Logger) {
    this.url = url;
    this.logger = logger;
  }

  static async open(url: string, logger: Logger): Promise<PoolPresence> {
    const presence = new PoolPresence(url, logger);
    try {
      await presence.connect();
    } catch (error) {
      await presence.close();
      throw error;
    }
    return presence;
  }

  /** Holds the pool's lock from now on; call it when the pool is created (its lock request is sent at once). */
  hold(poolId: string): void {
    this.pools.add(poolId);
    if (this.client) void this.setLock(this.client, poolId, true);
  }

  /** Lets the pool's lock go once the pool has stopped: the reconciler then unlocks the jobs it left locked. */
  release(poolId: string): void {
    this.pools.delete(poolId);
    if (this.client) void this.setLock(this.client, poolId, false);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: "svc job pool",
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      options: SESSION_KEEPALIVE_OPTIONS,
    });
    let lost = false;
    const onLost = (error: Error) => {
      if (lost || this.closed) return;
      lost = true;
      this.client = undefined;
      this.logger.warn({ error }, "job pool presence connection lost; reconnecting");
      void client.end().catch(() => undefined);
      this.timer = setTimeout(() => void this.connect().catch(() => undefined), RECONNECT_MS);
    };
    client.on("error", onLost);
    client.on("end", () => onLost(new Error("the job pool presence connection ended")));
    try {
      await client.connect();
    } catch (error) {
      onLost(error as Error);
      throw error;
    }
    this.client = client;
    for (const poolId of this.pools) await this.setLock(client, poolId, true);
  }

  /** Takes or lets go the pool's lock; queries on one connection run in order, so a release follows its hold. */
  private async setLock(client: pg.Client, poolId: string, held: boolean): Promise<void> {
    const call = held ? "pg_advisory_lock" : "pg_advisory_unlock";
    await client
      .query(`select ${call}($1, hashtext($2))`, [JOB_POOL_LOCK_CLASS, poolId])
      .catch((error: unknown) => this.logger.warn({ error, poolId }, `could not ${held ? "take" : "release"} the job pool's presence lock`));
  }
}

const lockedBy = z.object({ locked_by: z.string() });
const free = z.object({ free: z.boolean() });

/** Unlocks the jobs and queues locked by pools whose process is gone; answers those pools' ids. */
export async function unlockJobsOfGonePools(db: Db): Promise<string[]> {
  return withTransaction(db, async (tx) => {
    const old = sql.fragment`locked_by is not null and locked_at < now() - make_interval(secs => ${GRACE_SECONDS})`;
    const pools = await tx.anyFirst(sql.type(lockedBy)`
      select locked_by from graphile_worker._private_jobs where ${old}
      union select locked_by from graphile_worker._private_job_queues where ${old}`);
    const gone: string[] = [];
    for (const poolId of pools) {
      if (await tx.oneFirst(sql.type(free)`select pg_try_advisory_xact_lock(${JOB_POOL_LOCK_CLASS}, hashtext(${poolId})) as free`)) gone.push(poolId);
    }
    if (gone.length > 0) await tx.query(sql.unsafe`select graphile_worker.force_unlock_workers(${sql.array(gone, "text")})`);
    return gone;
  });
}
