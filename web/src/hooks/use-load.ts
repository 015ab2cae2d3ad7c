// Loads data for a page: the answer, or the refusal's message, for the
// latest `deps`; an answer that arrives after newer deps is dropped.
import { type DependencyList, useCallback, useEffect, useState } from "react";
import { errorMessage } from "../api/errors.ts";

type LoadState<T> = { status: "loading" } | { status: "done"; value: T } | { status: "failed"; message: string };

export type Loaded<T> = LoadState<T> & { reload(): void };

export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Loaded<T> {
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  const [state, setState] = useState<LoadState<T>>({ status: "loading" });
  useEffect(() => {
    const abort = new AbortController();
    setState({ status: "loading" });
    load(abort.signal).then(
      (value) => abort.signal.aborted || setState({ status: "done", value }),
      (error: unknown) => abort.signal.aborted || setState({ status: "failed", message: errorMessage(error) }),
    );
    return () => abort.abort();
    // `load` is read afresh with each change of `deps`, as the caller lists them.
  }, [...deps, round]);
  return { ...state, reload };
}
