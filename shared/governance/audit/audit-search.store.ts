// Reading the audit trail: records matching the §2.4 filter terms, in
// create_time order (ties by id), after a keyset position. Each query is one
// short statement on the pool; a long read is a series of them.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { type FilterTerm, sqlOperator } from "../../platform/index.ts";
import { z } from "zod";
import { searchedForms, searchedPrefix } from "./audit-bounds.ts";
import type { StoredAuditRow } from "./audit.store.ts";

/** Where a page or batch ended: the last record's create time (RFC 3339, microseconds) and id. */
export interface AuditPosition {
  time: string;
  id: string;
}

export interface AuditRecordQuery {
  terms: readonly FilterTerm[];
  desc: boolean;
  /** Continue after this record (exclusive). */
  after: AuditPosition | undefined;
  limit: number;
}

/** A record with its place in the listing, for the next page or batch to continue after. */
export interface PositionedAuditRecord extends StoredAuditRow {
  position: AuditPosition;
}

const COLUMN: Record<string, FragmentSqlToken> = {
  actor: sql.fragment`actor`,
  action: sql.fragment`action`,
  method: sql.fragment`method`,
  resource: sql.fragment`resource`,
  severity: sql.fragment`severity`,
  actor_ip: sql.fragment`actor_ip`,
  status: sql.fragment`status_code`,
  create_time: sql.fragment`create_time`,
  correlation_id: sql.fragment`correlation_id`,
};

const auditRow = z.object({
  id: z.coerce.string(),
  create_time: z.coerce.date(),
  position_time: z.string(),
  actor: z.string(),
  actor_ip: z.string(),
  user_agent: z.string(),
  action: z.string(),
  method: z.string(),
  resource: z.string(),
  severity: z.enum(["INFO", "WARNING", "ERROR", "CRITICAL"]),
  status_code: z.string(),
  status_message: z.string(),
  latency_us: z.coerce.number(),
  correlation_id: z.string(),
  request: z.string(),
  response: z.string(),
  detail: z.record(z.string(), z.unknown()),
});

type AuditRowOut = z.infer<typeof auditRow>;

/** The columns auditRow reads (the audit-log benchmark's bare baselines read the same, bench/figures/audit-log-seed.ts). */
export const AUDIT_READ_COLUMNS = sql.fragment`
  id, create_time, to_char(create_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as position_time,
  actor, actor_ip, user_agent, action, method, resource, severity, status_code, status_message,
  latency_us, correlation_id, request, response, detail`;

export async function findAuditRecords(db: CommonQueryMethods, query: AuditRecordQuery): Promise<PositionedAuditRecord[]> {
  const conditions = query.terms.map(condition);
  if (query.after) conditions.push(afterPosition(query.after, query.desc));
  const where = conditions.length ? sql.fragment`where ${sql.join(conditions, sql.fragment` and `)}` : sql.fragment``;
  const direction = query.desc ? sql.fragment`desc` : sql.fragment`asc`;
  // The benchmark's bare baselines use the same order (bench/figures/audit-log-seed.ts NEWEST_FIRST).
  const rows = await db.any(sql.type(auditRow)`
    select ${AUDIT_READ_COLUMNS}
    from audit_log ${where}
    order by create_time ${direction}, id ${direction}
    limit ${query.limit}`);
  return rows.map(toRecord);
}

function condition(term: FilterTerm): FragmentSqlToken {
  const column = COLUMN[term.field];
  if (!column) throw new Error(`audit filter field ${term.field} has no column`);
  if (term.value instanceof Date) return sql.fragment`${column} ${sqlOperator(term.op)} ${term.value.toISOString()}::timestamptz`;
  const value = String(term.value);
  if (term.field === "resource" && term.op === ":") return resourcePrefix(searchedPrefix(value));
  // Stored values are bounded and escaped (audit-bounds.ts): the term matches the value as stored or as given.
  const equal = sql.join(searchedForms(value).map((form) => sql.fragment`${column} = ${form}`), sql.fragment` or `);
  return term.op === "!=" ? sql.fragment`not (${equal})` : sql.fragment`(${equal})`;
}

/**
 * Resources starting with `prefix`. A prefix that is a whole first resource
 * and its slash (projects/p1/) names every record under that root but the
 * root's own: the root's index reads them newest first (migration 0025).
 * Any other prefix is a LIKE, which the resource's prefix index serves.
 */
function resourcePrefix(prefix: string): FragmentSqlToken {
  const root = UNDER_ROOT.exec(prefix)?.[1];
  if (root !== undefined) return sql.fragment`(audit_resource_root(resource) = ${root} and resource <> ${root})`;
  return sql.fragment`resource like ${likePrefix(prefix)}`;
}

/** A prefix of the form <collection>/<id>/, and its root. */
const UNDER_ROOT = /^([^/]*\/[^/]*)\/$/;

/** Rows strictly after the position in the listing order. */
function afterPosition(after: AuditPosition, desc: boolean): FragmentSqlToken {
  const position = sql.fragment`(${after.time}::timestamptz, ${after.id}::bigint)`;
  return desc ? sql.fragment`(create_time, id) < ${position}` : sql.fragment`(create_time, id) > ${position}`;
}

/** A LIKE pattern matching values that start with `prefix` (its own % and _ taken literally). */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function toRecord(row: AuditRowOut): PositionedAuditRecord {
  return {
    position: { time: row.position_time, id: row.id },
    id: row.id,
    createTime: row.create_time,
    actor: row.actor,
    actorIp: row.actor_ip,
    userAgent: row.user_agent,
    action: row.action,
    method: row.method,
    resource: row.resource,
    severity: row.severity,
    statusCode: row.status_code,
    statusMessage: row.status_message,
    latencyUs: row.latency_us,
    correlationId: row.correlation_id,
    request: row.request,
    response: row.response,
    detail: row.detail,
  };
}
