// The per-user limit's window (contract §15.6): one sliding minute,
// estimated from two fixed one-minute buckets — the previous bucket's count
// weighted by the share of it still inside the window, rounded up so that a
// burst across a bucket boundary is not let through, plus the current
// bucket's count. The store's reservation (migration 0022) computes the same
// estimate; both limiters answer a refusal from here.
import { type DomainError, resourceExhausted } from "../../platform/index.ts";

export const WINDOW_MS = 60_000;

export interface WindowCounts {
  /** Requests counted in the previous bucket. */
  previous: number;
  /** Requests counted in the current bucket. */
  current: number;
  /** Milliseconds since the current bucket began. */
  elapsedMs: number;
}

/** The requests the window holds now, by the two-bucket estimate. */
export function requestsInWindow({ previous, current, elapsedMs }: WindowCounts): number {
  return Math.ceil((previous * (WINDOW_MS - elapsedMs)) / WINDOW_MS) + current;
}

/** How long until the estimate drops below `limit`, the counts staying as they are. */
export function msUntilRoom(limit: number, { previous, current, elapsedMs }: WindowCounts): number {
  const room = limit - 1 - current; // what the weighted previous bucket may still count
  if (room >= 0 && previous > 0) return WINDOW_MS - elapsedMs - (room * WINDOW_MS) / previous;
  if (room >= 0) return 0;
  // The current bucket alone is full: it must become the previous one and decay.
  return 2 * WINDOW_MS - ((limit - 1) * WINDOW_MS) / current - elapsedMs;
}

/** The refusal of a principal over its limit, with Retry-After in whole seconds (at least 1). */
export function tooManyRequests(principal: string, limit: number, waitMs: number): DomainError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return resourceExhausted(`too many requests from ${principal}: at most ${limit} per minute per user; retry in ${seconds} s`, {
    headers: { "retry-after": String(seconds) },
  });
}
