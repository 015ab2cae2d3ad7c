// A client's deadline (Connect's connect-timeout-ms, gRPC's grpc-timeout) on
// an in-process call: when it passes, the call's controller aborts with
// deadline_exceeded and the pending answer is given up.
import { Code, ConnectError } from "@connectrpc/connect";

export interface CallDeadline {
  /** The call's answer, or the deadline's error when it passes first. */
  race<T>(work: Promise<T>): Promise<T>;
  clear(): void;
}

export function startDeadline(controller: AbortController, timeoutMs: number | undefined): CallDeadline {
  if (timeoutMs === undefined) return { race: (work) => work, clear: () => undefined };
  const timer = setTimeout(() => controller.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded)), timeoutMs);
  return { race: (work) => raceAbort(work, controller.signal), clear: () => clearTimeout(timer) };
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
