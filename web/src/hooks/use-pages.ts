// A list read page by page (contract §2.1): the first page for the latest
// `deps`, then more on request, each continuing from the last page's token.
import { type DependencyList, useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../api/errors.ts";

export interface Page<T> {
  items: T[];
  nextPageToken: string;
}

export interface Pages<T> {
  items: T[];
  loading: boolean;
  error: string | undefined;
  /** More can be read. */
  more: boolean;
  loadMore(): void;
}

export function usePages<T>(fetchPage: (pageToken: string, signal: AbortSignal) => Promise<Page<T>>, deps: DependencyList): Pages<T> {
  const [state, setState] = useState({ items: [] as T[], token: "", loading: true, error: undefined as string | undefined });
  const current = useRef<AbortController>(undefined);
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;

  const read = useCallback((pageToken: string, previous: T[]) => {
    current.current?.abort();
    const abort = new AbortController();
    current.current = abort;
    setState((s) => ({ ...s, items: previous, loading: true, error: undefined }));
    fetchRef.current(pageToken, abort.signal).then(
      (page) => abort.signal.aborted || setState({ items: [...previous, ...page.items], token: page.nextPageToken, loading: false, error: undefined }),
      (error: unknown) => abort.signal.aborted || setState((s) => ({ ...s, loading: false, error: errorMessage(error) })),
    );
  }, []);

  // The first page again whenever what the list shows changes.
  useEffect(() => {
    read("", []);
    return () => current.current?.abort();
  }, deps);

  const loadMore = useCallback(() => {
    if (!state.loading && state.token) read(state.token, state.items);
  }, [read, state]);

  return { items: state.items, loading: state.loading, error: state.error, more: Boolean(state.token), loadMore };
}
