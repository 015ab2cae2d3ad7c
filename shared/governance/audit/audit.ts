// Writing audit records (contract §8.1). Every record is written on the
// transaction of the change it describes; the caller publishes the returned
// records (stdout mirror) only after that transaction commits. Whatever an
// entry holds, its record is stored bounded and escaped (audit-bounds.ts).
import type { CommonQueryMethods } from "slonik";
import type { Severity } from "./actions.ts";
import { boundedJson, boundedJsonText, boundedText, COLUMN_CHARS, STRING_CHARS } from "./audit-bounds.ts";
import { insertAuditRow, type AuditRow, type StoredAuditRow } from "./audit.store.ts";

/** What a caller states about an action, any text at all; unstated facts default to empty. */
export interface AuditEntry {
  actor: string;
  action: string;
  severity?: Severity;
  resource?: string;
  actorIp?: string;
  userAgent?: string;
  method?: string;
  statusCode?: string;
  statusMessage?: string;
  latencyUs?: number;
  correlationId?: string;
  /** The request as JSON with every secret replaced by "***". */
  request?: string;
  /** The response as JSON with every secret replaced by "***". */
  response?: string;
  /** Event-specific facts, e.g. {reason, failureCount}; never a secret. */
  detail?: Record<string, unknown>;
}

export type AuditRecord = StoredAuditRow;

export function recordAudit(tx: CommonQueryMethods, entry: AuditEntry): Promise<AuditRecord> {
  return insertAuditRow(tx, toRow(entry));
}

function toRow(entry: AuditEntry): AuditRow {
  const column = (text: string | undefined) => boundedText(text ?? "", COLUMN_CHARS);
  return {
    actor: column(entry.actor),
    action: column(entry.action),
    severity: entry.severity ?? "INFO",
    resource: column(entry.resource),
    actorIp: column(entry.actorIp),
    userAgent: column(entry.userAgent),
    method: column(entry.method),
    statusCode: column(entry.statusCode ?? "ok"),
    statusMessage: boundedText(entry.statusMessage ?? "", STRING_CHARS),
    latencyUs: entry.latencyUs ?? 0,
    correlationId: column(entry.correlationId),
    request: boundedJsonText(entry.request ?? ""),
    response: boundedJsonText(entry.response ?? ""),
    detail: JSON.parse(boundedJson(entry.detail ?? {})) as Record<string, unknown>,
  };
}
