// One approval rule's inputs: its title, its CEL condition, and its steps in
// order, each step the roles whose holders may approve it.
import type { Role } from "@gen/svc/v1/role_service_pb.js";
import { Field } from "../../../components/field.tsx";
import { TextAreaField } from "../../../components/text-area-field.tsx";
import { EntryActions } from "../settings/entry-actions.tsx";
import { type ListEdits, listEdits } from "../settings/list-edits.ts";
import type { RuleRow } from "./approval-rows.ts";

const VARIABLES =
  "CEL over resource.environment_id, resource.project_id, resource.instance_id, resource.database_name, resource.db_engine, statement.sql_type, statement.affected_rows, statement.text, plan_check.max_level, issue.creator; true matches every change.";

interface ApprovalRuleFieldsProps {
  number: number;
  count: number;
  row: RuleRow;
  roles: readonly Role[];
  edits: ListEdits<RuleRow>;
}

export function ApprovalRuleFields({ number, count, row, roles, edits }: ApprovalRuleFieldsProps) {
  const index = number - 1;
  const name = `rule ${number}`;
  const steps = listEdits(row.steps, (next) => edits.change(index, { steps: next }));
  return (
    <fieldset className="setting-entry">
      <legend>Rule {number}</legend>
      <Field label={`Rule ${number} title`} name={`title-${number}`} value={row.title} onChange={(event) => edits.change(index, { title: event.target.value })} />
      <TextAreaField
        label={`Rule ${number} condition`}
        name={`condition-${number}`}
        required
        spellCheck={false}
        className="mono"
        value={row.expression}
        onChange={(event) => edits.change(index, { expression: event.target.value })}
        hint={VARIABLES}
      />
      <ol className="approval-steps">
        {row.steps.map((stepRoles, step) => (
          <li key={step}>
            <StepRoles rule={number} step={step + 1} chosen={stepRoles} roles={roles} onChange={(next) => steps.replace(step, next)} />
            <EntryActions name={`step ${step + 1} of ${name}`} index={step} count={row.steps.length} edits={steps} />
          </li>
        ))}
      </ol>
      {row.steps.length === 0 && <p className="hint">No step: a change this rule picks needs no approval.</p>}
      <div className="entry-actions">
        <button type="button" className="button" onClick={() => steps.add([])}>
          Add a step to {name}
        </button>
      </div>
      <EntryActions name={name} index={index} count={count} edits={edits} />
    </fieldset>
  );
}

interface StepRolesProps {
  rule: number;
  step: number;
  chosen: readonly string[];
  roles: readonly Role[];
  onChange(roles: string[]): void;
}

/** The step's roles as check boxes; a role read but no longer listed stays offered. */
function StepRoles({ rule, step, chosen, roles, onChange }: StepRolesProps) {
  const listed = roles.map((role) => ({ name: role.name, title: role.title || role.name }));
  const unlisted = chosen.filter((name) => !listed.some((role) => role.name === name)).map((name) => ({ name, title: name }));
  const toggle = (name: string, on: boolean) => onChange(on ? [...chosen, name] : chosen.filter((chosenName) => chosenName !== name));
  return (
    <fieldset className="step-roles">
      <legend>
        Step {step} of rule {rule}: who may approve
      </legend>
      {[...listed, ...unlisted].map((role) => (
        <label key={role.name} className="check">
          <input type="checkbox" checked={chosen.includes(role.name)} onChange={(event) => toggle(role.name, event.target.checked)} /> {role.title}
        </label>
      ))}
    </fieldset>
  );
}
