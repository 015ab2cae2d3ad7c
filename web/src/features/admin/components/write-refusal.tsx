// A write's refusal as the page shows it: the server's message, and for a
// stale etag the way to read the current version before trying again.
import { Alert } from "../../../components/alert.tsx";
import type { Action } from "../../../hooks/use-action.ts";

export function WriteRefusal({ action, onReload }: { action: Action; onReload(): void }) {
  if (!action.error) return null;
  if (!action.stale) return <Alert tone="error">{action.error}</Alert>;
  return (
    <div className="alert alert-error" role="alert">
      <p>Someone else changed this since you opened it, so your change was not saved ({action.error}).</p>
      <button type="button" className="button" onClick={onReload}>
        Reload the current version
      </button>
    </div>
  );
}
