// The audit facts of one audited call, shared by the code that records the
// call and the domain code that knows what happened (contract §8.1): the
// call's transaction, the action variant, severity, detail and any further
// records committed with it.
import type { Tx } from "../../platform/index.ts";
import type { Severity } from "./actions.ts";
import type { AuditEntry } from "./audit.ts";

/** A further record written with the call's own, e.g. bb.user.lock. */
export type ExtraAuditEntry = Pick<AuditEntry, "action" | "severity" | "resource" | "detail"> & { actor?: string };

/** What the code serving a call states about it for its record. */
export interface AuditFacts {
  /** The action recorded; the RPC's `audit` option unless domain code names a variant. */
  action: string;
  /** Overrides the caller as actor (e.g. the attempted login id of a failed sign-in). */
  actor?: string;
  severity?: Severity;
  /** Overrides the resource read from the request. */
  resource?: string;
  detail: Record<string, unknown>;
}

export interface CallAudit extends AuditFacts {
  /** The call's transaction: the change and its record commit together. */
  tx: Tx;
  /**
   * Keep what the call changed, and its record, although the call fails
   * (a counted failed sign-in). Otherwise a failure rolls everything back
   * and only the refusal is recorded.
   */
  keepChangesOnError: boolean;
  extra: ExtraAuditEntry[];
}

/**
 * The facts of a call recorded at its end: a server stream (an export), or a
 * call declaring `audit_at_end` (whose work runs on a target database). No
 * transaction is held while it runs; when it ends — succeeded, refused or
 * failed — its record is written in a short transaction of its own, with the
 * detail as it stands then and the writes stated in `withRecord`.
 */
export interface AuditAtEnd extends AuditFacts {
  /** Store writes committed with the record, in its transaction (a query history entry); kept whatever the outcome. */
  withRecord: ((tx: Tx) => Promise<unknown>)[];
}

export function newAuditAtEnd(action: string): AuditAtEnd {
  return { action, detail: {}, withRecord: [] };
}

export function newCallAudit(action: string): CallAudit {
  return { tx: undefined as unknown as Tx, action, detail: {}, keepChangesOnError: false, extra: [] };
}
