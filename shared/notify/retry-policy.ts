// When a failed attempt is tried again (contract §16.1): up to MAX_ATTEMPTS,
// each wait twice the one before with ±20 % jitter, BASE_DELAY_MS chosen so
// that the ten attempts span about an hour (7 s · (2⁹ − 1) ≈ 60 min). A 4xx
// other than 408 and 429 is final: the receiver refuses the request itself.
// A 429's Retry-After (seconds or an HTTP date) is honoured, within the hour.
import { InternalAddressError } from "./address-guard.ts";
import type { WebhookAnswer } from "./webhook-post.ts";

export const MAX_ATTEMPTS = 10;
const BASE_DELAY_MS = 7_000;
const LONGEST_WAIT_MS = 60 * 60_000;

export type AttemptOutcome =
  | { kind: "sent" }
  | { kind: "retry"; error: string; waitMs?: number }
  | { kind: "failed"; error: string };

/** What an answer means for the delivery. */
export function outcomeOf(answer: WebhookAnswer, now = Date.now()): AttemptOutcome {
  const { status } = answer;
  if (status >= 200 && status < 300) return { kind: "sent" };
  const error = `the receiver answered HTTP ${status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ""}`;
  if (status === 429) return { kind: "retry", error, waitMs: retryAfterMs(answer.retryAfter, now) };
  if (status >= 400 && status < 500 && status !== 408) return { kind: "failed", error };
  return { kind: "retry", error };
}

/** The outcome of one request: its answer's meaning (by default its HTTP status's), or a failure to get one (final when the target is internal). */
export async function attemptOutcome(request: () => Promise<WebhookAnswer>, meaning: (answer: WebhookAnswer) => AttemptOutcome = outcomeOf): Promise<AttemptOutcome> {
  try {
    return meaning(await request());
  } catch (error) {
    const message = (error as Error).message;
    return error instanceof InternalAddressError ? { kind: "failed", error: message } : { kind: "retry", error: message };
  }
}

/** The wait before attempt `attempts + 1`, after `attempts` failed. */
export function backoffMs(attempts: number, random = Math.random): number {
  const plain = BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1);
  return Math.round(plain * (0.8 + 0.4 * random()));
}

function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = /^\s*\d+\s*$/.test(header) ? Number(header) * 1000 : Date.parse(header) - now;
  return Number.isFinite(seconds) ? Math.min(Math.max(0, seconds), LONGEST_WAIT_MS) : undefined;
}
