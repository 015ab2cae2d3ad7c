// SQL on login_failure: consecutive sign-in failures per login id.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

export const failureRow = z
  .object({ failure_count: z.number(), locked_until: z.coerce.date().nullable() })
  .transform((r) => ({ failureCount: r.failure_count, lockedUntil: r.locked_until }));

export type LoginFailureRow = z.infer<typeof failureRow>;

const keptRow = z.object({ kept: z.boolean() });

const lockInForceRow = z.object({ login_id: z.string(), locked_until: z.coerce.date() });

export async function findLoginFailure(db: CommonQueryMethods, loginId: string): Promise<LoginFailureRow | undefined> {
  const row = await db.maybeOne(sql.type(failureRow)`select failure_count, locked_until from login_failure where login_id = ${loginId}`);
  return row ?? undefined;
}

/** The locks in force at `now` among these login ids, by login id. */
export async function findLocksInForce(db: CommonQueryMethods, loginIds: readonly string[], now: Date): Promise<Map<string, Date>> {
  const rows = await db.any(sql.type(lockInForceRow)`
    select login_id, locked_until from login_failure
    where login_id = any(${sql.array(loginIds, "text")}) and locked_until > ${sql.timestamp(now)}`);
  return new Map(rows.map((r) => [r.login_id, r.locked_until]));
}

/**
 * The row, created when absent, locked until the transaction ends: attempts on
 * one login id take turns. One upsert, so that a row deleted by a concurrent
 * success while this attempt waited is created again instead of missed.
 */
export async function lockLoginFailure(db: CommonQueryMethods, loginId: string): Promise<LoginFailureRow> {
  return db.one(sql.type(failureRow)`
    insert into login_failure (login_id) values (${loginId})
    on conflict (login_id) do update set login_id = excluded.login_id
    returning failure_count, locked_until`);
}

export async function saveLoginFailure(db: CommonQueryMethods, loginId: string, row: LoginFailureRow): Promise<void> {
  await db.query(sql.unsafe`
    update login_failure set failure_count = ${row.failureCount},
      locked_until = ${row.lockedUntil ? sql.timestamp(row.lockedUntil) : null}, update_time = now()
    where login_id = ${loginId}`);
}

/**
 * A success's reset in one statement: deletes the row unless a lock is in
 * force at `now` (waiting for an attempt that holds it). Answers true when a
 * row was there and is kept — locked, or changed meanwhile by a concurrent
 * attempt — so that the caller decides again under the row lock.
 */
export async function resetUnlessLocked(db: CommonQueryMethods, loginId: string, now: Date): Promise<boolean> {
  return db.oneFirst(sql.prepared("login_failure.reset_unless_locked", keptRow)`
    with reset as (
      delete from login_failure
      where login_id = ${loginId} and (locked_until is null or locked_until <= ${sql.timestamp(now)})
      returning 1)
    select exists (select 1 from login_failure where login_id = ${loginId}) and not exists (select 1 from reset) as kept`);
}

/** Forgets the failures of a login id; answers what was stored. */
export async function deleteLoginFailure(db: CommonQueryMethods, loginId: string): Promise<LoginFailureRow | undefined> {
  const row = await db.maybeOne(sql.type(failureRow)`
    delete from login_failure where login_id = ${loginId} returning failure_count, locked_until`);
  return row ?? undefined;
}

/**
 * Deletes the failure counts last changed more than `quietMs` ago whose lock,
 * if any, has ended (a row an attempt holds is decided again once it is
 * released, and kept when that attempt changed it); answers how many.
 */
export async function deleteQuietLoginFailures(db: CommonQueryMethods, quietMs: number): Promise<number> {
  const result = await db.query(sql.unsafe`
    delete from login_failure
    where (locked_until is null or locked_until <= now()) and update_time < now() - make_interval(secs => ${quietMs / 1000})`);
  return result.rowCount;
}
