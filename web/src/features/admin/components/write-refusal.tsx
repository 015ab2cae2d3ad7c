// A write's refusal as the page shows it: the server's message, and for a
// stale etag the way to read the current version before trying again.
import { Alert } from "../../../components/alert.tsx";
import type { Refusal } from "./use-write.ts";

export function WriteRefusal({ refusal, onReload }: { refusal: Refusal | undefined; onReload(): void }) {
  if (!refusal) return null;
  if (!refusal.stale) return <Alert tone="error">{refusal.message}</Alert>;
  return (
    <div className="alert alert-error" role="alert">
      <p>Someone else changed this since you opened it, so your change was not saved ({refusal.message}).</p>
      <button type="button" className="button" onClick={onReload}>
        Reload the current version
      </button>
    </div>
  );
}
