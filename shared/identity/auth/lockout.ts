// Lockout per login id (specification "States and transitions", contract
// §4.4): the 11th consecutive failure locks the id for 15 minutes and ends
// every session of its user (§4.3), a locked id refuses even the right
// password and is not counted again, a success resets the count. State lives
// in the metadata store so replicas agree.
import type { CommonQueryMethods } from "slonik";
import type { Severity } from "../../governance/index.ts";
import { emitEvent, userName } from "../../platform/index.ts";
import {
  deleteLoginFailure,
  findLocksInForce,
  findLoginFailure,
  lockLoginFailure,
  resetUnlessLocked,
  saveLoginFailure,
  type LoginFailureRow,
} from "./login-failure.store.ts";
import { revokeLoginIdSessions } from "./session.store.ts";

export const LOCK_THRESHOLD = 11;
export const LOCK_DURATION_MS = 15 * 60_000;

export type FailureOutcome =
  | { kind: "locked"; lockedUntil: Date }
  | { kind: "counted"; failureCount: number; lockedUntil: Date | undefined };

/** The end of a lock in force, read without waiting for concurrent attempts. */
export async function activeLock(db: CommonQueryMethods, loginId: string, now = new Date()): Promise<Date | undefined> {
  return lockInForce(await findLoginFailure(db, loginId), now);
}

/** The ends of the locks in force among `loginIds` (a page of users), by login id. */
export function activeLocks(db: CommonQueryMethods, loginIds: readonly string[], now = new Date()): Promise<Map<string, Date>> {
  return findLocksInForce(db, loginIds, now);
}

/** The end of a lock in force, read under the row lock: attempts on the login id take turns until the transaction ends. */
export async function lockForAttempt(tx: CommonQueryMethods, loginId: string, now = new Date()): Promise<Date | undefined> {
  return lockInForce(await lockLoginFailure(tx, loginId), now);
}

/**
 * Counts a failure, locking the id when it reaches the threshold and then
 * revoking the sessions of its user; an id already locked is not counted.
 */
export async function countFailure(tx: CommonQueryMethods, loginId: string, now = new Date()): Promise<FailureOutcome> {
  const row = await lockLoginFailure(tx, loginId);
  const lockedUntil = lockInForce(row, now);
  if (lockedUntil) return { kind: "locked", lockedUntil };
  const failureCount = (row.lockedUntil ? 0 : row.failureCount) + 1; // an expired lock starts over
  const newLock = failureCount >= LOCK_THRESHOLD ? new Date(now.getTime() + LOCK_DURATION_MS) : undefined;
  await saveLoginFailure(tx, loginId, { failureCount, lockedUntil: newLock ?? null });
  if (newLock) await lockedOut(tx, loginId, newLock);
  return { kind: "counted", failureCount, lockedUntil: newLock };
}

/** A new lock ends the user's sessions and is an event (contract §16.2). */
async function lockedOut(tx: CommonQueryMethods, loginId: string, lockedUntil: Date): Promise<void> {
  await revokeLoginIdSessions(tx, loginId);
  const user = userName(loginId);
  await emitEvent(tx, {
    event: "user.locked",
    source: "identity",
    actor: "system",
    resource: user,
    title: `${user} locked after repeated failed sign-ins`,
    detail: { lockedUntil: lockedUntil.toISOString() },
  });
}

/**
 * After a correct credential: refuses when a concurrent attempt locked the id,
 * else resets the count. One statement when the id has no lock (the usual
 * case); a row it kept is decided again under its row lock.
 */
export async function settleSuccess(tx: CommonQueryMethods, loginId: string, now = new Date()): Promise<Date | undefined> {
  if (!(await resetUnlessLocked(tx, loginId, now))) return undefined;
  const lockedUntil = lockInForce(await lockLoginFailure(tx, loginId), now);
  if (!lockedUntil) await deleteLoginFailure(tx, loginId);
  return lockedUntil;
}

/** Lifts a lock and resets the count; answers whether a lock was in force. */
export async function unlock(tx: CommonQueryMethods, loginId: string, now = new Date()): Promise<boolean> {
  return lockInForce(await deleteLoginFailure(tx, loginId), now) !== undefined;
}

export function failureSeverity(failureCount: number): Severity {
  if (failureCount >= LOCK_THRESHOLD) return "CRITICAL";
  return failureCount >= 4 ? "WARNING" : "INFO";
}

/** The end of the lock a failure row holds in force at `now`, if any. */
export function lockInForce(row: LoginFailureRow | undefined, now = new Date()): Date | undefined {
  return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : undefined;
}
