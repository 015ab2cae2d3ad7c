// One SQL call at a time: a new one, a cancel or leaving the page aborts the
// one running (the server then cancels the statement on the target); what
// the last one answered, or its refusal, is the page's output.
import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../../api/errors.ts";

export type Call = "query" | "explain" | "export" | "execute";

export type CallState<T> =
  | { status: "idle" }
  | { status: "running"; call: Call }
  | { status: "done"; value: T }
  | { status: "failed"; message: string }
  | { status: "cancelled" };

export function useSqlCall<T>() {
  const [state, setState] = useState<CallState<T>>({ status: "idle" });
  const current = useRef<AbortController>(undefined);
  useEffect(() => () => current.current?.abort(), []);

  const start = useCallback((call: Call, run: (signal: AbortSignal) => Promise<T>) => {
    current.current?.abort();
    const abort = new AbortController();
    current.current = abort;
    setState({ status: "running", call });
    run(abort.signal).then(
      (value) => abort.signal.aborted || setState({ status: "done", value }),
      (error: unknown) => abort.signal.aborted || setState({ status: "failed", message: errorMessage(error) }),
    );
  }, []);

  const cancel = useCallback(() => {
    current.current?.abort();
    setState({ status: "cancelled" });
  }, []);

  const fail = useCallback((message: string) => setState({ status: "failed", message }), []);

  return { state, start, cancel, fail };
}
