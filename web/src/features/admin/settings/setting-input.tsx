// One field of a setting's form, its input filled with the value read. A
// credential is never shown: only whether one is stored (contract §18.5).
import { useId } from "react";
import { Field } from "../../../components/field.tsx";
import { type SettingField, valueAt } from "./setting-fields.ts";

const INPUT_TYPES = { text: "text", url: "url", email: "email", int: "number", int64: "number" } as const;

export function SettingInput({ field, payload }: { field: SettingField; payload: unknown }) {
  const id = useId();
  const value = valueAt(payload, field.path);
  switch (field.kind) {
    case "checkbox":
      return (
        <label className="check">
          <input type="checkbox" name={field.path} defaultChecked={value === true} /> {field.label}
          {field.hint && <span className="hint">({field.hint})</span>}
        </label>
      );
    case "select":
      return (
        <div className="field">
          <label htmlFor={id}>{field.label}</label>
          <select id={id} name={field.path} defaultValue={String(value ?? 0)}>
            {field.choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      );
    case "secret": {
      const stored = valueAt(payload, field.setFlag) === true;
      const state = stored ? "Set; leave empty to keep it." : "Not set.";
      return <Field label={field.label} name={field.path} type="password" autoComplete="new-password" hint={`${state}${field.hint ? ` ${field.hint}` : ""}`} />;
    }
    default:
      return (
        <Field
          label={field.label}
          name={field.path}
          type={INPUT_TYPES[field.kind]}
          min={field.kind === "text" || field.kind === "url" || field.kind === "email" ? undefined : 0}
          defaultValue={value === undefined ? "" : String(value)}
          hint={field.hint}
        />
      );
  }
}
