// A project webhook's form, new or stored: title, type, URL and secret
// (input-only: a stored one is kept when left empty), the events it takes.
import { type Webhook, Webhook_Type } from "@gen/svc/v1/project_webhook_pb.js";
import { type FormEvent, useId, useState } from "react";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { draftOf, PROJECT_EVENTS, SIGNING_TYPES, TYPE_LABELS, type WebhookDraft } from "./webhook-draft.ts";

interface WebhookFormProps {
  /** The stored webhook being edited; undefined for a new one. */
  stored: Webhook | undefined;
  pending: boolean;
  onSave(draft: WebhookDraft): void;
  onClose(): void;
}

export function WebhookForm({ stored, pending, onSave, onClose }: WebhookFormProps) {
  const typeId = useId();
  const [draft, setDraft] = useState(() => draftOf(stored));
  const edit = (change: Partial<WebhookDraft>) => setDraft({ ...draft, ...change });
  const toggleEvent = (event: string, on: boolean) => edit({ events: on ? [...draft.events, event] : draft.events.filter((e) => e !== event) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(draft);
  };
  const heading = stored ? `Edit webhook ${stored.title}` : "New webhook";
  return (
    <form className="admin-card setting-fields" aria-label={heading} onSubmit={submit} onKeyDown={(event) => event.key === "Escape" && onClose()}>
      <h2>{heading}</h2>
      <Field label="Title" name="title" required maxLength={200} value={draft.title} onChange={(e) => edit({ title: e.target.value })} />
      <div className="field">
        <label htmlFor={typeId}>Type</label>
        <select id={typeId} value={draft.type} onChange={(e) => edit({ type: Number(e.target.value) as Webhook_Type })}>
          {[...TYPE_LABELS].map(([type, label]) => (
            <option key={type} value={type}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <Field
        label="URL"
        name="url"
        type="url"
        required={!stored}
        autoComplete="off"
        value={draft.url}
        onChange={(e) => edit({ url: e.target.value })}
        hint={stored ? `Stored, pointing to ${stored.urlShown}; leave empty to keep it.` : "The incoming-webhook address; it is never shown again."}
      />
      {SIGNING_TYPES.has(draft.type) && (
        <>
          <Field
            label="Secret"
            name="secret"
            type="password"
            autoComplete="new-password"
            value={draft.secret}
            disabled={draft.removeSecret}
            onChange={(e) => edit({ secret: e.target.value })}
            hint={stored?.secretSet ? "Set; leave empty to keep it." : "Not set; messages are signed when one is."}
          />
          {stored?.secretSet && (
            <label className="check">
              <input type="checkbox" checked={draft.removeSecret} onChange={(e) => edit({ removeSecret: e.target.checked })} />
              Remove the stored secret
            </label>
          )}
        </>
      )}
      <fieldset className="setting-entry">
        <legend>Events (none chosen: every event of the project)</legend>
        {PROJECT_EVENTS.map((event) => (
          <label key={event} className="check">
            <input type="checkbox" checked={draft.events.includes(event)} onChange={(e) => toggleEvent(event, e.target.checked)} />
            {event}
          </label>
        ))}
      </fieldset>
      <div className="actions">
        <SubmitButton pending={pending}>{stored ? "Save webhook" : "Create webhook"}</SubmitButton>
        <button type="button" className="button" onClick={onClose}>
          Back
        </button>
      </div>
    </form>
  );
}
