import type { Pages } from "../hooks/use-pages.ts";
import { FormError } from "./alert.tsx";
import { Loading } from "./loading.tsx";

/** Below a paged list: its refusal, its progress, the way to read more, or that it is empty. */
export function ListFooter({ pages, empty }: { pages: Pages<unknown>; empty: string }) {
  if (pages.error) return <FormError message={pages.error} />;
  if (pages.loading) return <Loading />;
  if (pages.more) {
    return (
      <button type="button" className="button" onClick={pages.loadMore}>
        Show more
      </button>
    );
  }
  return pages.items.length === 0 ? <p className="empty">{empty}</p> : null;
}
