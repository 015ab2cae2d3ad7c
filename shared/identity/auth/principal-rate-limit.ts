// Per-principal request limit (contract §15.6): N requests per minute per
// signed-in principal, counted in this process only. A store write per
// request would cost more than the limit protects, so each replica counts on
// its own and N replicas admit up to N× the limit.
//
// The window slides by weighting two fixed one-minute buckets: the estimate is
// ceil(previous × the share of the previous minute still inside the window) +
// current, rounded up so that a burst across a minute boundary is not let
// through. O(1) per request; principals idle for two minutes are forgotten by
// a sweep that runs at most once a minute. Refused requests are not counted.
import { resourceExhausted } from "../../platform/index.ts";

const WINDOW_MS = 60_000;

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
    const bucketStart = bucket * WINDOW_MS;
    // In whole milliseconds, so that the estimate is exact at the instant Retry-After names.
    const previousInWindow = Math.ceil((counter.previous * (bucketStart + WINDOW_MS - now)) / WINDOW_MS);
    if (previousInWindow + counter.current < this.#limit) {
      counter.current++;
      return;
    }
    const seconds = Math.max(1, Math.ceil(this.#msUntilAllowed(counter, bucketStart, now) / 1000));
    throw resourceExhausted(
      `too many requests from ${principal}: at most ${this.#limit} per minute per user; retry in ${seconds} s`,
      { headers: { "retry-after": String(seconds) } },
    );
  }

  /** When the estimate next drops below the limit, the counter staying as it is. */
  #msUntilAllowed(counter: Counter, bucketStart: number, now: number): number {
    const room = this.#limit - 1 - counter.current; // what the weighted previous bucket may still count
    if (room >= 0) return bucketStart + WINDOW_MS - (room * WINDOW_MS) / counter.previous - now;
    // The current bucket alone is full: it must become the previous one and decay.
    return bucketStart + 2 * WINDOW_MS - ((this.#limit - 1) * WINDOW_MS) / counter.current - now;
  }

  /** Forgets principals whose last request is older than both buckets of the window. */
  #sweep(bucket: number): void {
    this.#sweptBucket = bucket;
    for (const [principal, counter] of this.#counters) {
      if (counter.bucket < bucket - 1) this.#counters.delete(principal);
    }
  }
}
