// A card of a setting's fields as a form: the inputs (disabled without
// bb.settings.set), the write's refusal or news, Save, and what else the card
// offers below (a test).
import type { ReactNode } from "react";
import { Alert } from "../../../components/alert.tsx";
import { SubmitButton } from "../../../components/submit-button.tsx";
import type { Action } from "../../../hooks/use-action.ts";
import { WriteRefusal } from "../components/write-refusal.tsx";
import type { SettingField } from "./setting-fields.ts";
import { SettingInput } from "./setting-input.tsx";

interface SettingCardProps {
  heading: string;
  fields: readonly SettingField[];
  /** What the inputs show. */
  payload: unknown;
  /** Changes whenever `payload` is read or saved anew, so the inputs are filled afresh. */
  version: string;
  mayEdit: boolean;
  write: Action;
  news: string | undefined;
  onSubmit(form: FormData): void;
  onReload(): void;
  children?: ReactNode;
}

export function SettingCard({ heading, fields, payload, version, mayEdit, write, news, onSubmit, onReload, children }: SettingCardProps) {
  const headingId = `${heading.replace(/\W+/g, "-").toLowerCase()}-heading`;
  return (
    <section className="admin-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      <form key={version} onSubmit={(event) => (event.preventDefault(), onSubmit(new FormData(event.currentTarget)))}>
        <fieldset disabled={!mayEdit} className="setting-fields">
          {fields.map((field) => (
            <SettingInput key={field.path} field={field} payload={payload} />
          ))}
        </fieldset>
        <WriteRefusal action={write} onReload={onReload} />
        {news && <Alert tone="success">{news}</Alert>}
        {mayEdit && <SubmitButton pending={write.pending}>Save {heading.toLowerCase()}</SubmitButton>}
      </form>
      {children}
    </section>
  );
}
