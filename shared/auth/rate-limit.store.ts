// SQL on rate_limit_hit: a sliding-window log per (bucket, key), serialised
// per key by a transaction lock so that concurrent replicas count exactly.
// Two statements per request: the lock, then one statement that forgets old
// hits, counts the window and records the hit when there is room.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { RATE_LIMIT_LOCK_CLASS } from "../platform/locks.ts";

const windowRow = z.object({ hits: z.number(), oldest: z.coerce.date().nullable(), now: z.coerce.date(), counted: z.boolean() });

export interface WindowState {
  /** Hits in the window before this request. */
  hits: number;
  oldest: Date | null;
  now: Date;
  /** This request was recorded (the window had room). */
  counted: boolean;
}

/** Waits for the key's other requests to finish: held until the transaction ends. */
export async function lockKey(tx: CommonQueryMethods, bucket: string, key: string): Promise<void> {
  await tx.query(sql.unsafe`select pg_advisory_xact_lock(${RATE_LIMIT_LOCK_CLASS}, hashtext(${bucket} || ':' || ${key}))`);
}

/**
 * Under the key's lock (its own earlier statement, so that this one's snapshot
 * sees every hit committed before): forgets hits older than the window, counts
 * the rest and records one more when fewer than `limit`.
 */
export async function countHit(tx: CommonQueryMethods, bucket: string, key: string, limit: number, windowMs: number): Promise<WindowState> {
  return tx.one(sql.type(windowRow)`
    with clock as (select clock_timestamp() as now, clock_timestamp() - make_interval(secs => ${windowMs / 1000}) as since),
    expired as (
      delete from rate_limit_hit h using clock
      where h.bucket = ${bucket} and h.key = ${key} and h.hit_time <= clock.since),
    recent as (
      select count(*)::int as hits, min(h.hit_time) as oldest
      from rate_limit_hit h, clock
      where h.bucket = ${bucket} and h.key = ${key} and h.hit_time > clock.since),
    hit as (
      insert into rate_limit_hit (bucket, key, hit_time)
      select ${bucket}, ${key}, clock.now from clock, recent where recent.hits < ${limit}
      returning 1)
    select recent.hits, recent.oldest, clock.now, exists (select 1 from hit) as counted from recent, clock`);
}

/** Deletes every key's hits older than `windowMs` (countHit forgets only the old hits of the key it counts); answers how many. */
export async function deleteOldRateLimitHits(db: CommonQueryMethods, windowMs: number): Promise<number> {
  const result = await db.query(sql.unsafe`delete from rate_limit_hit where hit_time <= clock_timestamp() - make_interval(secs => ${windowMs / 1000})`);
  return result.rowCount;
}
