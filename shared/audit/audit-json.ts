// The public JSON form of an audit record (contract §8.1), used by the stdout
// mirror and by AuditLogService alike.
import { formatDuration } from "../platform/duration.ts";
import type { AuditRecord } from "./audit.ts";

export function auditRecordJson(record: AuditRecord): Record<string, unknown> {
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
