// Sliding-window rate limits shared by every replica through the metadata
// store (contract §4.5): a refused request is not counted, so a client that
// keeps trying is let in again as soon as its oldest counted hit ages out.
import { type Db, resourceExhausted } from "../../platform/index.ts";
import { takeHit, type Hit, type WindowState } from "./rate-limit.store.ts";

export interface RateLimit {
  bucket: string;
  limit: number;
  windowMs: number;
  /** Names what is limited in the refusal, e.g. "sign-in requests from this address". */
  subject: string;
}

/** Sign-in and password-reset calls per client IP (specification "Limits"). */
export const LOGIN_RATE_LIMIT: RateLimit = { bucket: "login", limit: 60, windowMs: 60_000, subject: "sign-in requests from this address" };

/** Counts one request for `key`; throws resource_exhausted with Retry-After when the window is full. */
export async function takeRateLimit(db: Db, rule: RateLimit, key: string): Promise<void> {
  admit(rule, await takeHit(db, hitOf(rule, key)));
}

/** One request of `key` under the rule. */
export function hitOf(rule: RateLimit, key: string): Hit {
  return { bucket: rule.bucket, key, limit: rule.limit, windowMs: rule.windowMs };
}

/** Lets the request through when its hit was counted; else throws resource_exhausted with Retry-After. */
export function admit(rule: RateLimit, state: WindowState): void {
  if (state.counted) return;
  const retryAfterMs = (state.oldest ?? state.now).getTime() + rule.windowMs - state.now.getTime();
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  throw resourceExhausted(`too many ${rule.subject}: at most ${rule.limit} per ${rule.windowMs / 1000} s; retry in ${seconds} s`, {
    headers: { "retry-after": String(seconds) },
  });
}
