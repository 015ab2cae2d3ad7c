// How a worker process learns that a run it executes must stop (contract
// §12.5): one LISTEN connection per process; a notice names a run, whose
// reason is then read from its row. A run is also checked when its watch
// starts and after the channel reconnects, so a request made while nobody
// listened is not missed.
import type { CommonQueryMethods } from "slonik";
import type { Logger } from "../platform/logger.ts";
import { findCancelReason, listenForCancels, type CancelNotices } from "./cancel.store.ts";

const RECONNECT_MS = 1_000;

export interface CancelWatch {
  /** Calls `onCancel` once with the reason when the run is asked to stop (now or later); resolves to the function that ends the watch. */
  watch(runId: number, onCancel: (reason: string) => void): Promise<() => void>;
  close(): Promise<void>;
}

export function createCancelWatch(url: string, db: CommonQueryMethods, logger: Logger): CancelWatch {
  const watched = new Map<number, (reason: string) => void>();
  let notices: CancelNotices | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const check = async (runId: number) => {
    const onCancel = watched.get(runId);
    if (!onCancel) return;
    const reason = await findCancelReason(db, runId).catch((error: unknown) => logger.warn({ error, runId }, "could not read a task run's cancel request"));
    if (reason === undefined || watched.get(runId) !== onCancel) return;
    watched.delete(runId);
    onCancel(reason);
  };
  const reconnectLater = () => {
    if (!closed) timer = setTimeout(() => void connect(), RECONNECT_MS);
  };
  const connect = async () => {
    try {
      let lost = false;
      const listening = await listenForCancels(url, (runId) => void check(runId), (error) => {
        if (lost) return;
        lost = true;
        notices = undefined;
        logger.warn({ error }, "task run cancel channel lost; reconnecting");
        reconnectLater();
      });
      if (closed) return void (await listening.close());
      notices = listening;
      for (const runId of watched.keys()) void check(runId);
    } catch (error) {
      logger.debug({ error }, "task run cancel channel not available yet");
      reconnectLater();
    }
  };
  void connect();

  return {
    async watch(runId, onCancel) {
      watched.set(runId, onCancel);
      await check(runId);
      return () => {
        if (watched.get(runId) === onCancel) watched.delete(runId);
      };
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await notices?.close();
      notices = undefined;
    },
  };
}
