// SQL on rate_limit_hit: a sliding-window log per (bucket, key), serialised
// per key by a transaction lock so that concurrent replicas count exactly.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { RATE_LIMIT_LOCK_CLASS } from "../platform/locks.ts";

const windowRow = z.object({ hits: z.number(), oldest: z.coerce.date().nullable(), now: z.coerce.date() });

export interface WindowState {
  hits: number;
  oldest: Date | null;
  now: Date;
}

/** Locks the key, forgets hits older than the window and reads what remains. */
export async function openWindow(tx: CommonQueryMethods, bucket: string, key: string, windowMs: number): Promise<WindowState> {
  await tx.query(sql.unsafe`select pg_advisory_xact_lock(${RATE_LIMIT_LOCK_CLASS}, hashtext(${bucket} || ':' || ${key}))`);
  await tx.query(sql.unsafe`
    delete from rate_limit_hit
    where bucket = ${bucket} and key = ${key} and hit_time <= clock_timestamp() - make_interval(secs => ${windowMs / 1000})`);
  return tx.one(sql.type(windowRow)`
    select count(*)::int as hits, min(hit_time) as oldest, clock_timestamp() as now
    from rate_limit_hit where bucket = ${bucket} and key = ${key}`);
}

export async function insertHit(tx: CommonQueryMethods, bucket: string, key: string): Promise<void> {
  await tx.query(sql.unsafe`insert into rate_limit_hit (bucket, key) values (${bucket}, ${key})`);
}
