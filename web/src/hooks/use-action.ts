// A button's call: one at a time, pending while it runs, and the server's
// refusal as the page shows it afterwards (nothing is set once the page is gone).
import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../api/errors.ts";

export interface Action {
  pending: boolean;
  error: string | undefined;
  /** Runs `call` unless another is running; true when it succeeded. */
  run(call: () => Promise<unknown>): Promise<boolean>;
}

export function useAction(): Action {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
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
      if (mounted.current) setError(errorMessage(reason));
      return false;
    } finally {
      busy.current = false;
      if (mounted.current) setPending(false);
    }
  }, []);
  return { pending, error, run };
}
