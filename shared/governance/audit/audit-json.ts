// The public JSON form of an audit record (contract §8.1), used by the stdout
// mirror and by AuditLogService alike (its messages and its exports).
import { formatDuration } from "../../platform/index.ts";
import type { AuditRecord } from "./audit.ts";

/** The fields of the JSON form in contract §8.1 order (also the CSV columns, §18.9). */
export const AUDIT_RECORD_FIELDS = [
  "name", "createTime", "actor", "actorIp", "userAgent", "action", "method", "resource", "severity", "status", "latency",
  "correlationId", "request", "response", "detail",
] as const;

export type AuditRecordJson = Record<(typeof AUDIT_RECORD_FIELDS)[number], unknown>;

/** Builds the fields in AUDIT_RECORD_FIELDS order. */
export function auditRecordJson(record: AuditRecord): AuditRecordJson {
  return {
    name: `auditLogs/${record.id}`,
    createTime: record.createTime.toISOString(),
    actor: record.actor,
    actorIp: record.actorIp,
    userAgent: record.userAgent,
    action: record.action,
    method: record.method,
    resource: record.resource,
    severity: record.severity,
    status: { code: record.statusCode, message: record.statusMessage },
    latency: formatDuration(record.latencyUs / 1000),
    correlationId: record.correlationId,
    request: record.request,
    response: record.response,
    detail: record.detail,
  };
}
