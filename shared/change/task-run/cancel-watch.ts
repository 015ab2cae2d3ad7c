// How a worker process learns that a run it executes must stop (contract
// §12.5): one LISTEN connection per process; a notice names a run, whose
// reason is then read from its row. A run is watched from before its claim:
// a stop can only be asked of a RUNNING run, and the notice of a request is
// sent when it commits, which is after the claim's commit; the watched runs
// are checked again after the channel reconnects, so a request made while
// nobody listened is not missed.
import type { CommonQueryMethods } from "slonik";
import { listenToChannel, type Logger } from "../../platform/index.ts";
import { CANCEL_CHANNEL, findCancelReason } from "./store/run-execution.store.ts";

export interface CancelWatch {
  /** Calls `onCancel` once with the reason when the run is asked to stop from now on; answers the function that ends the watch. */
  watch(runId: number, onCancel: (reason: string) => void): () => void;
  close(): Promise<void>;
}

export function createCancelWatch(url: string, db: CommonQueryMethods, logger: Logger): CancelWatch {
  const watched = new Map<number, (reason: string) => void>();
  const check = async (runId: number) => {
    const onCancel = watched.get(runId);
    if (!onCancel) return;
    const reason = await findCancelReason(db, runId).catch((error: unknown) => logger.warn({ error, task_run_id: runId }, "could not read a task run's cancel request"));
    if (reason === undefined || watched.get(runId) !== onCancel) return;
    watched.delete(runId);
    onCancel(reason);
  };
  const channel = listenToChannel({
    url,
    channel: CANCEL_CHANNEL,
    applicationName: "svc task run cancels",
    logger,
    onNotice: (payload) => void check(Number(payload)),
    onListening: () => {
      for (const runId of watched.keys()) void check(runId);
    },
    lostMessage: "task run cancel channel lost; reconnecting",
  });

  return {
    watch(runId, onCancel) {
      watched.set(runId, onCancel);
      return () => {
        if (watched.get(runId) === onCancel) watched.delete(runId);
      };
    },
    close: () => channel.close(),
  };
}
