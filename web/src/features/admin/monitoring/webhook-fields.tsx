// One webhook's inputs: URL, secret (never shown: only whether one is stored),
// events, and its removal.
import { Field } from "../../../components/field.tsx";
import type { WebhookRow } from "./webhook-rows.ts";

interface WebhookFieldsProps {
  number: number;
  row: WebhookRow;
  onChange(change: Partial<WebhookRow>): void;
  onRemove(): void;
}

export function WebhookFields({ number, row, onChange, onRemove }: WebhookFieldsProps) {
  return (
    <fieldset className="setting-entry">
      <legend>Webhook {number}</legend>
      <Field label={`Webhook ${number} URL`} name={`url-${number}`} type="url" required value={row.url} onChange={(event) => onChange({ url: event.target.value })} />
      <Field
        label={`Webhook ${number} secret`}
        name={`secret-${number}`}
        type="password"
        autoComplete="new-password"
        value={row.secret}
        onChange={(event) => onChange({ secret: event.target.value })}
        hint={row.secretSet ? "Set; leave empty to keep it." : "Not set."}
      />
      <Field
        label={`Webhook ${number} events`}
        name={`events-${number}`}
        value={row.events}
        onChange={(event) => onChange({ events: event.target.value })}
        hint="Comma-separated, e.g. issue.created, rollout.done; empty for every event."
      />
      <button type="button" className="button" onClick={onRemove}>
        Remove webhook {number}
      </button>
    </fieldset>
  );
}
