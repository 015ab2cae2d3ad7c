// Writing audit records (contract §8.1). Every record is written on the
// transaction of the change it describes; the caller publishes the returned
// records (stdout mirror) only after that transaction commits.
import type { CommonQueryMethods } from "slonik";
import type { Severity } from "./actions.ts";
import { insertAuditRow, type AuditRow, type StoredAuditRow } from "./audit.store.ts";

/** What a caller states about an action; unstated facts default to empty. */
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
  return {
    actor: entry.actor,
    action: entry.action,
    severity: entry.severity ?? "INFO",
    resource: entry.resource ?? "",
    actorIp: entry.actorIp ?? "",
    userAgent: entry.userAgent ?? "",
    method: entry.method ?? "",
    statusCode: entry.statusCode ?? "ok",
    statusMessage: entry.statusMessage ?? "",
    latencyUs: entry.latencyUs ?? 0,
    correlationId: entry.correlationId ?? "",
    request: entry.request ?? "",
    response: entry.response ?? "",
    detail: entry.detail ?? {},
  };
}
