// A resource kept live by a server stream (contract §12.3: the whole resource
// on subscribe, again on every change, heartbeats in between). When the
// stream ends or fails, it is opened again after a growing pause; a stream
// silent for longer than a few heartbeats is taken for dead and reopened.
import { Code, ConnectError } from "@connectrpc/connect";
import { type DependencyList, useEffect, useState } from "react";
import { errorMessage } from "../api/errors.ts";

/** The server sends a heartbeat after 15 s without a change. */
const SILENCE_LIMIT_MS = 45_000;
const FIRST_DELAY_MS = 500;
const LONGEST_DELAY_MS = 15_000;

/** The pause before reopening after `failures` attempts in a row failed: doubling, capped, with ±20 % jitter. */
export function reconnectDelay(failures: number, random = Math.random): number {
  const base = Math.min(FIRST_DELAY_MS * 2 ** failures, LONGEST_DELAY_MS);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** Refusals that another attempt would only repeat. */
const FINAL_CODES = new Set([Code.NotFound, Code.PermissionDenied, Code.InvalidArgument, Code.Unimplemented]);

export interface Watched<T> {
  value: T | undefined;
  /** The stream is open and has answered. */
  live: boolean;
  /** Why the stream is not open, while it is not. */
  error: string | undefined;
}

/**
 * Watches through `open`, which yields the resource, or undefined for a
 * heartbeat. `reopen` runs before each attempt after the first: a unary read
 * there renews an expired session, which a stream cannot do by itself.
 */
export function useWatch<T>(
  open: (signal: AbortSignal) => AsyncIterable<T | undefined>,
  reopen: (signal: AbortSignal) => Promise<unknown>,
  deps: DependencyList,
): Watched<T> {
  const [state, setState] = useState<Watched<T>>({ value: undefined, live: false, error: undefined });
  useEffect(() => {
    const stop = new AbortController();
    setState({ value: undefined, live: false, error: undefined });
    void follow(stop.signal);
    return () => stop.abort();

    async function follow(stopped: AbortSignal) {
      for (let failures = 0, attempt = 0; !stopped.aborted; attempt++) {
        const round = new AbortController();
        const abortRound = () => round.abort();
        stopped.addEventListener("abort", abortRound);
        let silence = setTimeout(abortRound, SILENCE_LIMIT_MS);
        try {
          if (attempt > 0) await reopen(round.signal);
          for await (const value of open(round.signal)) {
            clearTimeout(silence);
            silence = setTimeout(abortRound, SILENCE_LIMIT_MS);
            failures = 0;
            setState((s) => ({ value: value ?? s.value, live: true, error: undefined }));
          }
        } catch (error) {
          if (stopped.aborted) return;
          const refusal = ConnectError.from(error);
          const message = round.signal.aborted ? "The live updates stopped; reconnecting…" : errorMessage(error);
          setState((s) => ({ ...s, live: false, error: message }));
          if (FINAL_CODES.has(refusal.code) && !round.signal.aborted) return;
        } finally {
          clearTimeout(silence);
          stopped.removeEventListener("abort", abortRound);
        }
        setState((s) => ({ ...s, live: false }));
        await pause(reconnectDelay(failures++), stopped);
      }
    }
    // `open` and `reopen` are read afresh with each change of `deps`, as the caller lists them.
  }, deps);
  return state;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
