// Audit hook: every RPC with an `audit` option runs in one transaction with
// its audit record (contract §8.1). A failed call rolls its change back and
// leaves a record of the refusal, unless the handler kept its changes (a
// counted failed sign-in). Records reach the stdout mirror after commit; the
// mirror never fails the call (shared/audit/stdout-mirror.ts).
// Server-streaming calls (exports) and calls declaring audit_at_end hold no
// transaction and are recorded when they end (audit-at-end.ts); a request
// that could not be decoded is recorded as a refusal without a request
// (audit-undecodable.ts).
import type { Message } from "@bufbuild/protobuf";
import { Code, type ConnectError, type Interceptor, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { type AuditPublisher, type AuditRecord, type CallAudit, newCallAudit, recordAudit } from "../../../shared/governance/index.ts";
import { type Db, type Tx, withTransaction } from "../../../shared/platform/index.ts";
import { kAudit } from "../audit-scope.ts";
import { requestFacts } from "../context.ts";
import { methodOptions } from "../method-options.ts";
import { isServerStream } from "../stream-request.ts";
import { auditEntry, connectErrorOf } from "./audit-entry.ts";
import { auditServerStream, auditUnaryAtEnd } from "./audit-at-end.ts";
import { undecodableRefusal } from "./audit-undecodable.ts";

export interface AuditDeps {
  db: Db;
  publish: AuditPublisher;
}

type Outcome = { response: UnaryResponse } | { error: ConnectError };

export function createAuditInterceptor(deps: AuditDeps): Interceptor {
  return (next) => async (req) => {
    const { auditAction: action, auditAtEnd } = methodOptions(req.method);
    if (!action) return next(req);
    if (isServerStream(req)) return auditServerStream(deps, action, req, next);
    if (req.stream) return next(req); // client and bidi streams declare no audit action
    if (auditAtEnd) return auditUnaryAtEnd(deps, action, req, next);
    const scope = newCallAudit(action);
    req.contextValues.set(kAudit, scope);
    const { logger } = requestFacts(req.contextValues);
    const undecodable = undecodableRefusal(req.contextValues);
    const call = undecodable ? () => Promise.reject(undecodable.error) : () => next(req) as Promise<UnaryResponse>;
    const request = undecodable ? undefined : req.message;
    let records: AuditRecord[] = [];
    let outcome: Outcome;
    try {
      outcome = await withTransaction(deps.db, async (tx) => {
        scope.tx = tx;
        const result = await runKeepingChanges(call, scope, req);
        records = await writeRecords(tx, scope, req, request, result);
        return result;
      });
    } catch (thrown) {
      const error = connectErrorOf(thrown, req);
      records = await recordRefusal(deps.db, scope, req, request, error);
      await deps.publish(records, logger);
      throw thrown;
    }
    await deps.publish(records, logger);
    if ("error" in outcome) throw outcome.error;
    return outcome.response;
  };
}

async function runKeepingChanges(call: () => Promise<UnaryResponse>, scope: CallAudit, req: UnaryRequest): Promise<Outcome> {
  try {
    return { response: await call() };
  } catch (thrown) {
    if (!scope.keepChangesOnError) throw thrown;
    return { error: connectErrorOf(thrown, req) };
  }
}

/** The refusal alone, on its own transaction, after the call's own rolled back. */
async function recordRefusal(db: Db, scope: CallAudit, req: UnaryRequest, request: Message | undefined, error: ConnectError): Promise<AuditRecord[]> {
  if (error.code === Code.Unavailable) return []; // the store itself is gone: nothing can be written
  try {
    return await withTransaction(db, (tx) => writeRecords(tx, { ...scope, extra: [] }, req, request, { error }));
  } catch (recordError) {
    requestFacts(req.contextValues).logger.error({ error: recordError }, "could not record the refused call in the audit log");
    return [];
  }
}

async function writeRecords(tx: Tx, scope: CallAudit, req: UnaryRequest, request: Message | undefined, outcome: Outcome): Promise<AuditRecord[]> {
  const end = "error" in outcome ? { error: outcome.error } : { response: outcome.response.message };
  const base = auditEntry(scope, req, request, end);
  const records = [await recordAudit(tx, base)];
  for (const extra of scope.extra) records.push(await recordAudit(tx, { ...base, request: "", response: "", detail: {}, ...extra }));
  return records;
}
