// A request limit counted in this process only: N requests per minute per
// key, in the sliding window of sliding-window.ts. Directory sync counts its
// client addresses with it, and the per-user limit falls back to it while
// the store cannot be reached (principal-rate-limit-shared.ts).
//
// O(1) per request; keys idle for two minutes are forgotten by a sweep that
// runs at most once a minute. Refused requests are not counted.
import { msUntilRoom, requestsInWindow, tooManyRequests, WINDOW_MS, type WindowCounts } from "./sliding-window.ts";

interface Counter {
  /** Index of the current bucket: floor(time / WINDOW_MS). */
  bucket: number;
  current: number;
  previous: number;
}

export class PrincipalRateLimiter {
  readonly #limit: number;
  readonly #counters = new Map<string, Counter>();
  #sweptBucket = 0;

  /** `limit`: requests per minute per principal, at least 1. */
  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`the per-principal limit must be a positive integer, got ${limit}`);
    this.#limit = limit;
  }

  /** Principals with a counter, idle ones included until the next sweep. */
  get size(): number {
    return this.#counters.size;
  }

  /** Counts one request of `principal`; throws resource_exhausted with Retry-After when its window is full. */
  take(principal: string, now = Date.now()): void {
    const bucket = Math.floor(now / WINDOW_MS);
    if (bucket > this.#sweptBucket) this.#sweep(bucket);
    let counter = this.#counters.get(principal);
    if (!counter) {
      counter = { bucket, current: 0, previous: 0 };
      this.#counters.set(principal, counter);
    } else if (counter.bucket !== bucket) {
      counter.previous = counter.bucket === bucket - 1 ? counter.current : 0;
      counter.current = 0;
      counter.bucket = bucket;
    }
    // In whole milliseconds, so that the estimate is exact at the instant Retry-After names.
    const counts: WindowCounts = { previous: counter.previous, current: counter.current, elapsedMs: now - bucket * WINDOW_MS };
    if (requestsInWindow(counts) < this.#limit) {
      counter.current++;
      return;
    }
    throw tooManyRequests(principal, this.#limit, msUntilRoom(this.#limit, counts));
  }

  /** Forgets principals whose last request is older than both buckets of the window. */
  #sweep(bucket: number): void {
    this.#sweptBucket = bucket;
    for (const [principal, counter] of this.#counters) {
      if (counter.bucket < bucket - 1) this.#counters.delete(principal);
    }
  }
}
