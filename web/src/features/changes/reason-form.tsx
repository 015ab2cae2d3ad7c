// A short form asking why before an action that needs a reason (skipping a
// task, cancelling a rollout): the reason, then confirm or go back.
import { useEffect, useId, useRef, useState } from "react";

export function ReasonForm({ label, confirm, pending, onConfirm, onClose }: { label: string; confirm: string; pending: boolean; onConfirm(reason: string): void; onClose(): void }) {
  const id = useId();
  const [reason, setReason] = useState("");
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <form className="reason-form" onSubmit={(event) => (event.preventDefault(), onConfirm(reason.trim()))} onKeyDown={(event) => event.key === "Escape" && onClose()}>
      <label htmlFor={id}>{label}</label>
      <input id={id} ref={input} value={reason} onChange={(event) => setReason(event.target.value)} />
      <button type="submit" className="button danger" disabled={pending}>
        {confirm}
      </button>
      <button type="button" className="button" onClick={onClose}>
        Back
      </button>
    </form>
  );
}
