// One environment's inputs: its id (typed only when added here), title,
// colour, protection, rollout policy, its SQL review rules, and its place in
// the promotion order.
import { EnvironmentSetting_RolloutPolicy } from "@gen/svc/v1/setting_operations_pb.js";
import { useId } from "react";
import { Field } from "../../../components/field.tsx";
import { EntryActions } from "../settings/entry-actions.tsx";
import { type ListEdits, listEdits } from "../settings/list-edits.ts";
import type { EnvironmentRow } from "./environment-rows.ts";
import { ReviewRulesFields } from "./review-rules-fields.tsx";

interface EnvironmentFieldsProps {
  number: number;
  count: number;
  row: EnvironmentRow;
  edits: ListEdits<EnvironmentRow>;
}

export function EnvironmentFields({ number, count, row, edits }: EnvironmentFieldsProps) {
  const index = number - 1;
  const name = row.id || `environment ${number}`;
  const change = (next: Partial<EnvironmentRow>) => edits.change(index, next);
  const policyId = useId();
  return (
    <fieldset className="setting-entry">
      <legend>
        {number}. {row.title || name} {!row.added && <code className="hint">{row.id}</code>}
      </legend>
      {row.added && <Field label={`Id of environment ${number}`} name={`id-${number}`} required pattern="[a-z][a-z0-9-]*" value={row.id} onChange={(event) => change({ id: event.target.value })} hint="Lower-case letters, digits and dashes; it cannot change later." />}
      <Field label={`Title of ${name}`} name={`title-${number}`} value={row.title} onChange={(event) => change({ title: event.target.value })} />
      <Field label={`Colour of ${name}`} name={`color-${number}`} value={row.color} onChange={(event) => change({ color: event.target.value })} hint="A CSS colour such as #d33, or empty." />
      <label className="check">
        <input type="checkbox" checked={row.protected} onChange={(event) => change({ protected: event.target.checked })} /> {name} is protected
      </label>
      <div className="field">
        <label htmlFor={policyId}>Rollout of {name}</label>
        <select id={policyId} value={row.rolloutPolicy} onChange={(event) => change({ rolloutPolicy: Number(event.target.value) })}>
          <option value={EnvironmentSetting_RolloutPolicy.AUTOMATIC}>Automatic</option>
          <option value={EnvironmentSetting_RolloutPolicy.MANUAL}>Manual</option>
        </select>
      </div>
      <ReviewRulesFields environment={name} rules={row.rules} edits={listEdits(row.rules, (rules) => change({ rules }))} />
      <EntryActions name={name} index={index} count={count} edits={edits} />
    </fieldset>
  );
}
