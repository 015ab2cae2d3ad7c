// An environment's SQL review rules (contract §10.4, docs/sql-review.md):
// each configured rule with its level as three radio buttons, its payload as
// read; a rule added by its code. Without configured rules the catalogue's
// defaults apply, which the page says rather than lists.
import { useId, useState } from "react";
import { Field } from "../../../components/field.tsx";
import type { EnvironmentSetting_Rule_Level } from "@gen/svc/v1/setting_operations_pb.js";
import type { ListEdits } from "../settings/list-edits.ts";
import { LEVELS, type ReviewRuleRow } from "./environment-rows.ts";

interface ReviewRulesFieldsProps {
  environment: string;
  rules: readonly ReviewRuleRow[];
  edits: ListEdits<ReviewRuleRow>;
}

export function ReviewRulesFields({ environment, rules, edits }: ReviewRulesFieldsProps) {
  return (
    <fieldset className="review-rules">
      <legend>SQL review rules of {environment}</legend>
      {rules.length === 0 && <p className="hint">None configured: the catalogue's defaults apply (the starred rules as errors in prod, warnings elsewhere).</p>}
      <ul>
        {rules.map((rule, index) => (
          <li key={`${rule.type}-${index}`} className="review-rule">
            <RuleLevel environment={environment} rule={rule} onLevel={(level) => edits.change(index, { level })} />
            {rule.payload && Object.keys(rule.payload).length > 0 && <code className="hint">{JSON.stringify(rule.payload)}</code>}
            <button type="button" className="button" onClick={() => edits.remove(index)}>
              Remove {rule.type} from {environment}
            </button>
          </li>
        ))}
      </ul>
      <NewRule environment={environment} taken={rules.map((rule) => rule.type)} onAdd={(type) => edits.add({ type, level: LEVELS[1].value })} />
    </fieldset>
  );
}

function RuleLevel({ environment, rule, onLevel }: { environment: string; rule: ReviewRuleRow; onLevel(level: EnvironmentSetting_Rule_Level): void }) {
  const group = useId();
  return (
    <fieldset className="rule-level">
      <legend>
        <code>{rule.type}</code> <span className="visually-hidden">in {environment}</span>
      </legend>
      {LEVELS.map((level) => (
        <label key={level.value} className="check">
          <input type="radio" name={group} checked={rule.level === level.value} onChange={() => onLevel(level.value)} /> {level.label}
        </label>
      ))}
    </fieldset>
  );
}

/** A rule's code typed; the server refuses an unknown one, naming it. */
function NewRule({ environment, taken, onAdd }: { environment: string; taken: readonly string[]; onAdd(type: string): void }) {
  const [type, setType] = useState("");
  const code = type.trim();
  return (
    <div className="new-rule">
      <Field
        label={`New rule for ${environment}`}
        name={`new-rule-${environment}`}
        value={type}
        spellCheck={false}
        onChange={(event) => setType(event.target.value)}
        hint="A rule's code from the SQL review catalogue, e.g. table.require-pk; it starts as a warning."
      />
      <button type="button" className="button" disabled={!code || taken.includes(code)} onClick={() => (onAdd(code), setType(""))}>
        Add the rule to {environment}
      </button>
    </div>
  );
}
