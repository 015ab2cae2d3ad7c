// A question before an action that cannot be taken back (deleting, writing
// to a database): what will happen, then confirm or go back. The confirm
// button takes the focus; Escape goes back.
import { type ReactNode, useEffect, useId, useRef } from "react";

interface ConfirmStepProps {
  children: ReactNode;
  confirm: string;
  pending: boolean;
  onConfirm(): void;
  onClose(): void;
}

export function ConfirmStep({ children, confirm, pending, onConfirm, onClose }: ConfirmStepProps) {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <div role="group" aria-labelledby={id} className="reason-form" onKeyDown={(event) => event.key === "Escape" && onClose()}>
      <p id={id}>{children}</p>
      <button ref={button} type="button" className="button danger" disabled={pending} aria-busy={pending} onClick={onConfirm}>
        {pending ? "Please wait…" : confirm}
      </button>
      <button type="button" className="button" onClick={onClose}>
        Back
      </button>
    </div>
  );
}
