// One watch stream (contract §12.3): the resource on subscribe, then again
// after every change of it, and a heartbeat after HEARTBEAT_MS without
// anything sent. Notices come in bursts (a rollout of 500 tasks announces
// every task run it starts and ends), so they are coalesced: the resource is
// read once COALESCE_MS after the first notice of a burst, and never by two
// reads at once; a notice arriving during a read brings one more read. A
// state that reads the same as the last one sent is not sent again.
import type { ChangeFeed } from "./change-feed.ts";

/** How long after a burst's first notice the resource is read: the most a change waits. */
export const COALESCE_MS = 100;
/** How long a stream stays silent before a heartbeat. */
export const HEARTBEAT_MS = 15_000;

export interface WatchOptions<T> {
  /** Ends the watch (the client went away, or the server is shutting down). */
  signal: AbortSignal;
  /** Whether two states look the same to the client. */
  same: (a: T, b: T) => boolean;
  heartbeatMs?: number;
  coalesceMs?: number;
}

/**
 * The states of the resource `name` as `read` gives them, from now on;
 * `undefined` is a heartbeat. The first read happens after subscribing, so
 * no change is missed between them, and its failure (not_found) is the
 * watch's failure before anything is sent. Ends without error when `signal`
 * aborts.
 */
export async function* watchResource<T>(feed: ChangeFeed, name: string, read: () => Promise<T>, options: WatchOptions<T>): AsyncGenerator<T | undefined> {
  const { signal, same, heartbeatMs = HEARTBEAT_MS, coalesceMs = COALESCE_MS } = options;
  const notices = coalescedNotices(feed, name, coalesceMs);
  try {
    let last = await read();
    yield last;
    let sentAt = performance.now();
    for (;;) {
      const woke = await notices.next(sentAt + heartbeatMs - performance.now(), signal);
      if (woke === "aborted") return;
      if (woke === "quiet") {
        yield undefined;
        sentAt = performance.now();
        continue;
      }
      const current = await read();
      if (signal.aborted) return;
      if (same(current, last)) continue;
      last = current;
      yield current;
      sentAt = performance.now();
    }
  } finally {
    notices.close();
  }
}

type Wake = "changed" | "quiet" | "aborted";

/** A subscription whose notices are taken in coalesced bursts. */
function coalescedNotices(feed: ChangeFeed, name: string, coalesceMs: number) {
  let noticed = false; // a notice came that no read has taken yet
  let due = false; // and its coalescing delay is over
  let delay: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const unsubscribe = feed.subscribe(name, () => {
    if (noticed) return;
    noticed = true;
    delay = setTimeout(() => {
      due = true;
      wake?.();
    }, coalesceMs);
  });
  const take = (): Wake => {
    noticed = due = false;
    return "changed";
  };
  return {
    /** "changed" once a burst is due, "quiet" after `waitMs` without one, "aborted" when `signal` aborts. */
    next(waitMs: number, signal: AbortSignal): Promise<Wake> {
      if (signal.aborted) return Promise.resolve("aborted");
      if (due) return Promise.resolve(take());
      return new Promise((resolve) => {
        const settle = (wakeWith: () => Wake) => {
          clearTimeout(quiet);
          signal.removeEventListener("abort", onAbort);
          wake = undefined;
          resolve(wakeWith());
        };
        const quiet = setTimeout(() => settle(() => "quiet"), Math.max(0, waitMs));
        const onAbort = () => settle(() => "aborted");
        signal.addEventListener("abort", onAbort);
        wake = () => settle(take);
      });
    },
    close() {
      unsubscribe();
      clearTimeout(delay);
    },
  };
}
