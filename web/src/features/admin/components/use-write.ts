// A write's call: one at a time, pending while it runs, and the server's
// refusal afterwards — marked stale when it is the refusal of an old etag
// (contract §0.7: aborted), so that the page can offer to reload.
import { Code, ConnectError } from "@connectrpc/connect";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../../../api/errors.ts";

export interface Refusal {
  message: string;
  /** Someone else changed the resource since it was read. */
  stale: boolean;
}

export interface Write {
  pending: boolean;
  refusal: Refusal | undefined;
  /** Runs `call` unless another write runs; true when it succeeded. */
  run(call: () => Promise<unknown>): Promise<boolean>;
  dismiss(): void;
}

export function useWrite(): Write {
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<Refusal>();
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
    setRefusal(undefined);
    try {
      await call();
      return true;
    } catch (error) {
      if (mounted.current) setRefusal({ message: errorMessage(error), stale: ConnectError.from(error).code === Code.Aborted });
      return false;
    } finally {
      busy.current = false;
      if (mounted.current) setPending(false);
    }
  }, []);
  return { pending, refusal, run, dismiss: useCallback(() => setRefusal(undefined), []) };
}
