// A message in the page: refusals are announced at once (role alert), news
// politely (role status).
import type { ReactNode } from "react";

type Tone = "error" | "info" | "success" | "warning";

export function Alert({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}

/** The form's refusal, when there is one. */
export function FormError({ message }: { message: string | undefined }) {
  return message ? <Alert tone="error">{message}</Alert> : null;
}
