// The audit search's filter builder: actor, action, resource prefix, a time
// range and the outcome, searched on submit; the filter text it makes is
// shown so that the same search can be made over the API.
import { useId } from "react";
import { Field } from "../../../components/field.tsx";
import { type AuditCriteria, NO_CRITERIA } from "./audit-filter.ts";

const OUTCOMES: [value: string, label: string][] = [
  ["", "Any outcome"],
  ["ok", "Succeeded"],
  ["failed", "Refused or failed"],
  ["permission_denied", "Permission denied"],
  ["unauthenticated", "Unauthenticated"],
  ["invalid_argument", "Invalid argument"],
  ["failed_precondition", "Failed precondition"],
  ["aborted", "Aborted (stale etag)"],
  ["not_found", "Not found"],
  ["internal", "Internal error"],
];

export function AuditCriteriaForm({ onSearch }: { onSearch(criteria: AuditCriteria): void }) {
  const outcomeId = useId();
  const read = (form: HTMLFormElement): AuditCriteria => {
    const data = new FormData(form);
    const value = (key: keyof AuditCriteria) => String(data.get(key) ?? "");
    return { actor: value("actor"), action: value("action"), resource: value("resource"), from: value("from"), until: value("until"), status: value("status") };
  };
  return (
    <form
      className="criteria"
      aria-label="Audit search"
      onSubmit={(event) => (event.preventDefault(), onSearch(read(event.currentTarget)))}
      onReset={() => onSearch(NO_CRITERIA)}
    >
      <Field label="Actor" name="actor" hint="A login id, me or system" autoComplete="off" />
      <Field label="Action" name="action" hint="Exact, e.g. bb.settings.set" autoComplete="off" />
      <Field label="Resource" name="resource" hint="Starts with, e.g. projects/alpha" autoComplete="off" />
      <Field label="From" name="from" type="datetime-local" />
      <Field label="Until" name="until" type="datetime-local" />
      <div className="field">
        <label htmlFor={outcomeId}>Outcome</label>
        <select id={outcomeId} name="status" defaultValue="">
          {OUTCOMES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="actions criteria-actions">
        <button type="submit" className="button primary">
          Search
        </button>
        <button type="reset" className="button">
          Clear
        </button>
      </div>
    </form>
  );
}
