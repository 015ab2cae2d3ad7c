// The audit search's filter (contract §8.3, grammar §2.3): built from the
// form's fields, each a term joined by AND, values quoted.
import { filterValue } from "../../../api/filter.ts";

export interface AuditCriteria {
  /** A login id, users/<id>, "me", "system". */
  actor: string;
  /** An exact action, e.g. bb.settings.set. */
  action: string;
  /** A resource name prefix, e.g. projects/alpha. */
  resource: string;
  /** From and until, as a datetime-local input gives them (the reader's zone). */
  from: string;
  until: string;
  /** "" any, "failed" any refusal, or one status code. */
  status: string;
}

export const NO_CRITERIA: AuditCriteria = { actor: "", action: "", resource: "", from: "", until: "", status: "" };

export function auditFilter(criteria: AuditCriteria): string {
  const terms: string[] = [];
  const text = (field: string, value: string) => value.trim() && terms.push(`${field}:${filterValue(value.trim())}`);
  text("actor", criteria.actor);
  text("action", criteria.action);
  text("resource", criteria.resource);
  if (criteria.from) terms.push(`create_time>=${filterValue(instant(criteria.from))}`);
  if (criteria.until) terms.push(`create_time<=${filterValue(instant(criteria.until))}`);
  if (criteria.status === "failed") terms.push(`status!=ok`);
  else if (criteria.status) terms.push(`status=${criteria.status}`);
  return terms.join(" AND ");
}

/** A local date-time ("2026-03-01T09:30") as the RFC 3339 instant it means here. */
function instant(local: string): string {
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? local : time.toISOString();
}
