// SQL on principal_request_count: the per-user limit's counts, shared by
// every replica (migration 0022). One statement reserves a block of requests
// under the principal's transaction lock; it commits on its own.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { type Db, RATE_LIMIT_LOCK_CLASS } from "../../platform/index.ts";
import type { WindowCounts } from "./sliding-window.ts";

const reservation = z.object({
  granted: z.number(),
  previous_requests: z.number(),
  current_requests: z.number(),
  elapsed_ms: z.number(),
});

export interface Reservation extends WindowCounts {
  /** Requests reserved for the caller (0 when the window is full). */
  granted: number;
}

/**
 * Reserves up to `blockSize` requests of `principal` in its sliding minute
 * under `limit`. On a pool, not in a transaction. `at` replaces the store's
 * clock (for tests of the window).
 */
export async function reservePrincipalRequests(db: Db, principal: string, limit: number, blockSize: number, at?: Date): Promise<Reservation> {
  const clock = at ? sql.fragment`${at.toISOString()}::timestamptz` : sql.fragment`clock_timestamp()`;
  const row = await db.one(sql.type(reservation)`
    select granted, previous_requests, current_requests, elapsed_ms
    from principal_request_reserve(${principal}, ${limit}, ${blockSize}, ${RATE_LIMIT_LOCK_CLASS}, ${clock})`);
  return { granted: row.granted, previous: row.previous_requests, current: row.current_requests, elapsedMs: row.elapsed_ms };
}

/** Deletes the counts of minutes before the previous one (a reservation forgets only its own principal's); answers how many. */
export async function deleteOldPrincipalRequestCounts(db: CommonQueryMethods): Promise<number> {
  const result = await db.query(sql.unsafe`
    delete from principal_request_count where minute < floor(extract(epoch from clock_timestamp()) * 1000 / 60000) - 1`);
  return result.rowCount;
}
