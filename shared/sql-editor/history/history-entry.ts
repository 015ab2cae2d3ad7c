// The one way Query, Export and Execute keep a call in the query history
// (contract §19.1): the entry is written with the call's audit record when
// the call ends (AuditAtEnd.withRecord), whatever the outcome, from the facts
// as they stand then.
import type { AuditAtEnd } from "../../governance/index.ts";
import { DomainError } from "../../platform/index.ts";
import { recordQueryHistory } from "./query-history.ts";
import type { QueryHistoryType } from "./query-history.store.ts";

/** How the call went: read when its record is written. */
export interface HistoryFacts {
  durationMs: number;
  /** Rows returned, exported or affected. */
  rowCount: number;
  /** "" when it succeeded. */
  error: string;
}

export interface HistoryCall {
  /** instances/<instance>/databases/<database> */
  name: string;
  statement: string;
  /** users/<login_id> */
  caller: string;
}

export function keepInHistory(audit: AuditAtEnd, type: QueryHistoryType, call: HistoryCall, facts: () => HistoryFacts): void {
  audit.withRecord.push((tx) => recordQueryHistory(tx, { creator: call.caller, database: call.name, statement: call.statement, type, ...facts() }));
}

/** What the history shows of a failure: a domain error's message; nothing of an internal one. */
export function historyError(error: unknown): string {
  return error instanceof DomainError ? error.message : "internal error";
}
