// The per-user limit (contract §15.6) held across API replicas without a
// store write per request (decision 0071): a replica reserves a block of a
// principal's requests in the store (principal_request_reserve, which grants
// only what the sliding minute still has room for) and admits requests from
// that block locally. The block is a fiftieth of the limit, so a user at the
// limit costs about fifty store statements a minute whatever its rate, and a
// block left unspent on a replica the user no longer calls holds the user at
// most 2 % below the limit, never above it.
//
// Concurrent requests of one principal wait for one reservation. When the
// store answers "no room", the refusal is remembered until its Retry-After,
// so a client that keeps trying costs no store access. When the store cannot
// be reached, the replica counts in the process for a while (as before the
// limit was shared) rather than refuse or fail the call.
import type { Db, Logger } from "../../platform/index.ts";
import { PrincipalRateLimiter } from "./principal-rate-limit.ts";
import { reservePrincipalRequests } from "./principal-request-count.store.ts";
import { msUntilRoom, tooManyRequests, WINDOW_MS } from "./sliding-window.ts";

const BLOCKS_PER_LIMIT = 50;
/** How long a replica counts in the process after the store failed a reservation. */
const STORE_RETRY_MS = 1_000;

interface Allowance {
  /** Requests reserved in the store and not yet admitted. */
  tokens: number;
  /** When (local clock) the store's minute of those requests ends; they lapse then. */
  lapsesAt: number;
  /** Until when (local clock) the store has no room for this principal. */
  refusedUntil: number;
  /** The reservation on its way, which concurrent requests wait for. */
  reserving: Promise<void> | undefined;
}

export interface SharedRateLimiterOptions {
  /** The side pool: reservations commit on their own, whatever the call does. */
  db: Db;
  /** Requests per minute per principal, at least 1. */
  limit: number;
  logger: Logger;
}

export class SharedPrincipalRateLimiter {
  readonly #db: Db;
  readonly #limit: number;
  readonly #blockSize: number;
  readonly #logger: Logger;
  readonly #fallback: PrincipalRateLimiter;
  readonly #allowances = new Map<string, Allowance>();
  #storeFailedUntil = 0;
  #sweptAt = Date.now();
  #reservations = 0;

  constructor(options: SharedRateLimiterOptions) {
    this.#fallback = new PrincipalRateLimiter(options.limit); // checks the limit
    this.#db = options.db;
    this.#limit = options.limit;
    this.#blockSize = Math.ceil(options.limit / BLOCKS_PER_LIMIT);
    this.#logger = options.logger;
  }

  /** Store statements made so far: one per block, not per request. */
  get reservations(): number {
    return this.#reservations;
  }

  /** Counts one request of `principal`; throws resource_exhausted with Retry-After when its window is full. */
  async take(principal: string): Promise<void> {
    this.#sweep(Date.now());
    const allowance = this.#allowanceOf(principal);
    for (;;) {
      const now = Date.now();
      if (now >= allowance.lapsesAt) allowance.tokens = 0;
      if (allowance.tokens > 0) {
        allowance.tokens--;
        return;
      }
      if (now < allowance.refusedUntil) throw tooManyRequests(principal, this.#limit, allowance.refusedUntil - now);
      if (now < this.#storeFailedUntil) return this.#fallback.take(principal, now);
      allowance.reserving ??= this.#reserve(principal, allowance).finally(() => (allowance.reserving = undefined));
      await allowance.reserving;
    }
  }

  async #reserve(principal: string, allowance: Allowance): Promise<void> {
    const sentAt = Date.now();
    this.#reservations++;
    try {
      const reservation = await reservePrincipalRequests(this.#db, principal, this.#limit, this.#blockSize);
      // Measured from the moment the statement was sent, so the block lapses no later than the store's minute ends.
      allowance.lapsesAt = sentAt + WINDOW_MS - reservation.elapsedMs;
      allowance.tokens = reservation.granted;
      if (reservation.granted === 0) allowance.refusedUntil = Date.now() + Math.max(1, msUntilRoom(this.#limit, reservation));
    } catch (error) {
      if (Date.now() >= this.#storeFailedUntil) this.#logger.warn({ error }, "per-user rate limit: the store did not answer; counting in this process for now");
      this.#storeFailedUntil = Date.now() + STORE_RETRY_MS;
    }
  }

  #allowanceOf(principal: string): Allowance {
    let allowance = this.#allowances.get(principal);
    if (!allowance) {
      allowance = { tokens: 0, lapsesAt: 0, refusedUntil: 0, reserving: undefined };
      this.#allowances.set(principal, allowance);
    }
    return allowance;
  }

  /** At most once a minute, forgets principals whose block has lapsed and who are not refused. */
  #sweep(now: number): void {
    if (now - this.#sweptAt < WINDOW_MS) return;
    this.#sweptAt = now;
    for (const [principal, allowance] of this.#allowances) {
      if (allowance.lapsesAt <= now && allowance.refusedUntil <= now && !allowance.reserving) this.#allowances.delete(principal);
    }
  }
}
