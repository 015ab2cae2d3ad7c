// SQL on the append-only audit_log table.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import type { Severity } from "./actions.ts";

export interface AuditRow {
  actor: string;
  actorIp: string;
  userAgent: string;
  action: string;
  method: string;
  resource: string;
  severity: Severity;
  statusCode: string;
  statusMessage: string;
  latencyUs: number;
  correlationId: string;
  request: string;
  response: string;
  detail: Record<string, unknown>;
}

export interface StoredAuditRow extends AuditRow {
  id: string;
  createTime: Date;
}

const inserted = z.object({ id: z.coerce.string(), create_time: z.coerce.date() });

export async function insertAuditRow(db: CommonQueryMethods, row: AuditRow): Promise<StoredAuditRow> {
  const { id, create_time } = await db.one(sql.prepared("audit_log.insert", inserted)`
    insert into audit_log (actor, actor_ip, user_agent, action, method, resource, severity, status_code,
                           status_message, latency_us, correlation_id, request, response, detail)
    values (${row.actor}, ${row.actorIp}, ${row.userAgent}, ${row.action}, ${row.method}, ${row.resource},
            ${row.severity}, ${row.statusCode}, ${row.statusMessage}, ${Math.round(row.latencyUs)},
            ${row.correlationId}, ${row.request}, ${row.response}, ${sql.jsonb(row.detail as never)})
    returning id, create_time`);
  return { ...row, id, createTime: create_time };
}
