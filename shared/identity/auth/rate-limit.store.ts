// SQL on rate_limit_hit: a sliding-window log per (bucket, key), serialised
// per key by a transaction lock so that concurrent replicas count exactly.
// One statement per request (rate_limit_take_hit, migration 0017): the lock,
// then, with a snapshot taken under it, the old hits forgotten, the window
// counted and the hit recorded when there is room.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { type Db, RATE_LIMIT_LOCK_CLASS } from "../../platform/index.ts";

/** The columns of a WindowState, as hitTaken's FROM item has them. */
export const windowRow = z.object({ hits: z.number(), oldest: z.coerce.date().nullable(), now: z.coerce.date(), counted: z.boolean() });

export interface WindowState {
  /** Hits in the window before this request. */
  hits: number;
  oldest: Date | null;
  now: Date;
  /** This request was recorded (the window had room). */
  counted: boolean;
}

/** One request of `key` in a bucket's window of `windowMs` holding at most `limit`. */
export interface Hit {
  bucket: string;
  key: string;
  limit: number;
  windowMs: number;
}

/**
 * Records one hit for the key when fewer than `limit` are in the window. On a
 * pool, not in a transaction: it commits on its own, releasing the key's lock.
 */
export async function takeHit(db: Db, hit: Hit): Promise<WindowState> {
  return db.one(sql.prepared("rate_limit.take_hit", windowRow)`select hits, oldest, now, counted from ${hitTaken(hit)}`);
}

/**
 * The function call that takes the hit, as a FROM item with the columns of
 * WindowState, for a statement that reads what the request needs along with
 * it (one round trip instead of two). It commits with that statement.
 */
export function hitTaken(hit: Hit) {
  return sql.fragment`rate_limit_take_hit(${hit.bucket}, ${hit.key}, ${hit.limit}, ${hit.windowMs / 1000}, ${RATE_LIMIT_LOCK_CLASS})`;
}

/** Deletes every key's hits older than `windowMs` (takeHit forgets only the old hits of the key it counts); answers how many. */
export async function deleteOldRateLimitHits(db: CommonQueryMethods, windowMs: number): Promise<number> {
  const result = await db.query(sql.unsafe`delete from rate_limit_hit where hit_time <= clock_timestamp() - make_interval(secs => ${windowMs / 1000})`);
  return result.rowCount;
}
