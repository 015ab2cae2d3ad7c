// Every change directory sync makes is recorded with the actor `scim`
// (contract §19.4, §8.1), in the transaction of the change, together with the
// records the shared domain functions add (bb.role.assign for a new user's
// workspaceMember binding). A refused change rolls back and leaves a record
// of the refusal, as a refused RPC does. Passwords a directory sends are
// never kept: they are "***" in the recorded request.
import {
  type AuditEntry,
  type AuditPublisher,
  type AuditRecord,
  type CallAudit,
  newCallAudit,
  recordAudit,
  SCIM_ACTOR,
} from "../../governance/index.ts";
import { type Db, DomainError, type Logger, type Tx, withTransaction } from "../../platform/index.ts";
import { isObject, type Json } from "./scim-json.ts";

/** What the transport knows of one SCIM request. */
export interface ScimRequest {
  /** The route, e.g. "PATCH /scim/v2/Users/:id". */
  method: string;
  clientIp: string;
  userAgent: string;
  correlationId: string;
  /** performance.now() when the request arrived. */
  startedAt: number;
  body: unknown;
  logger: Logger;
}

export interface ScimStore {
  db: Db;
  /** Mirrors committed records (stdout-mirror.ts). */
  publish: AuditPublisher;
}

/** One SCIM call: where it writes, what the transport knows of it, and the base URL of resource locations. */
export interface ScimCall {
  store: ScimStore;
  request: ScimRequest;
  /** <external URL>/scim/v2 */
  baseUrl: string;
}

/** Runs `work` in one transaction with its audit record; `audit.action` and `audit.resource` may be refined by it. */
export async function recordedChange<T>(store: ScimStore, request: ScimRequest, action: string, resource: string, work: (audit: CallAudit) => Promise<T>): Promise<T> {
  const audit = newCallAudit(action);
  audit.resource = resource;
  let records: AuditRecord[] = [];
  let result: T;
  try {
    result = await withTransaction(store.db, async (tx) => {
      audit.tx = tx;
      const value = await work(audit);
      records = await writeRecords(tx, audit, entry(audit, request));
      return value;
    });
  } catch (error) {
    await store.publish(await recordRefusal(store.db, audit, request, error), request.logger);
    throw error;
  }
  await store.publish(records, request.logger);
  return result;
}

async function recordRefusal(db: Db, audit: CallAudit, request: ScimRequest, error: unknown): Promise<AuditRecord[]> {
  const known = error instanceof DomainError;
  const refusal: AuditEntry = {
    ...entry(audit, request),
    severity: known ? "INFO" : "ERROR",
    statusCode: known ? error.code : "internal",
    statusMessage: known ? error.message : "internal error",
  };
  try {
    return await withTransaction(db, (tx) => writeRecords(tx, { ...audit, extra: [] }, refusal));
  } catch (recordError) {
    request.logger.error({ error: recordError }, "could not record the refused directory sync change in the audit log");
    return [];
  }
}

async function writeRecords(tx: Tx, audit: CallAudit, base: AuditEntry): Promise<AuditRecord[]> {
  const records = [await recordAudit(tx, base)];
  for (const extra of audit.extra) records.push(await recordAudit(tx, { ...base, request: "", detail: {}, ...extra }));
  return records;
}

function entry(audit: CallAudit, request: ScimRequest): AuditEntry {
  return {
    actor: SCIM_ACTOR,
    action: audit.action,
    resource: audit.resource,
    actorIp: request.clientIp,
    userAgent: request.userAgent,
    method: request.method,
    latencyUs: (performance.now() - request.startedAt) * 1000,
    correlationId: request.correlationId,
    request: request.body === undefined ? "" : JSON.stringify(redacted(request.body as Json)),
    detail: audit.detail,
  };
}

/** The body with every password replaced by "***": `password` members, and values of operations on a password path. */
function redacted(value: Json): Json {
  if (Array.isArray(value)) return value.map(redacted);
  if (!isObject(value)) return value;
  const onPassword = typeof value.path === "string" && /password/i.test(value.path) && "value" in value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, /^password$/i.test(key) || (onPassword && key === "value") ? "***" : redacted(v)]),
  );
}
