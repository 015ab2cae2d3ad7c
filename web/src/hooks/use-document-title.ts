import { useEffect } from "react";

/** The browser tab's title while the page is shown (screen readers announce it on navigation). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
