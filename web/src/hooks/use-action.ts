// A button's call: one at a time, pending while it runs, and the server's
// refusal as the page shows it afterwards (nothing is set once the page is gone).
import { Code, ConnectError } from "@connectrpc/connect";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../api/errors.ts";

export interface Action {
  pending: boolean;
  error: string | undefined;
  /** The refusal was of a stale etag (contract §0.7): someone else changed what was read. */
  stale: boolean;
  /** Runs `call` unless another is running; true when it succeeded. */
  run(call: () => Promise<unknown>): Promise<boolean>;
  /** Forgets the refusal (the page read the resource again). */
  dismiss(): void;
}

export function useAction(): Action {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [stale, setStale] = useState(false);
  const busy = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const run = useCallback(async (call: () => Promise<unknown>) => {
    if (busy.current) return false;
    busy.current = true;
    setPending(true);
    setError(undefined);
    try {
      await call();
      return true;
    } catch (reason) {
      if (mounted.current) {
        setError(errorMessage(reason));
        setStale(ConnectError.from(reason).code === Code.Aborted);
      }
      return false;
    } finally {
      busy.current = false;
      if (mounted.current) setPending(false);
    }
  }, []);
  const dismiss = useCallback(() => setError(undefined), []);
  return { pending, error, stale, run, dismiss };
}
