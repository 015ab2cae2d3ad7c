// A query parameter read at the page's first render, then taken out of the
// address bar, so that it stays out of the history, reloads and screenshots.
import { useEffect, useState } from "react";

export function useParamOnce(name: string): string {
  const [value] = useState(() => new URL(window.location.href).searchParams.get(name) ?? "");
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has(name)) return;
    url.searchParams.delete(name);
    window.history.replaceState(window.history.state, "", url.pathname + url.search);
  }, [name]);
  return value;
}
