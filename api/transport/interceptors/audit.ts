// Audit hook: every RPC with an `audit` option runs in one transaction with
// its audit record (contract §8.1). A failed call rolls its change back and
// leaves a record of the refusal, unless the handler kept its changes (a
// counted failed sign-in). Records reach the stdout mirror after commit.
import { Code, ConnectError, type Interceptor, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { ANONYMOUS_ACTOR } from "../../../shared/audit/actions.ts";
import { recordAudit, type AuditEntry, type AuditRecord } from "../../../shared/audit/audit.ts";
import type { AuditPublisher } from "../../../shared/audit/stdout-mirror.ts";
import { withTransaction, type Db, type Tx } from "../../../shared/platform/db.ts";
import { newCallAudit, type CallAudit } from "../../../shared/audit/call-audit.ts";
import { kAudit } from "../audit-scope.ts";
import { toConnectError } from "../connect-error.ts";
import { requestFacts } from "../context.ts";
import { methodOptions } from "../method-options.ts";
import { redactedJson } from "../redact.ts";
import { kPrincipal } from "./authn.ts";
import { requestResource } from "../request-resource.ts";

export interface AuditDeps {
  db: Db;
  publish: AuditPublisher;
}

type Outcome = { response: UnaryResponse } | { error: ConnectError };

export function createAuditInterceptor(deps: AuditDeps): Interceptor {
  return (next) => async (req) => {
    const action = methodOptions(req.method).auditAction;
    // Streaming calls (exports) write their own record when they finish.
    if (!action || req.stream) return next(req);
    const scope = newCallAudit(action);
    req.contextValues.set(kAudit, scope);
    let records: AuditRecord[] = [];
    let outcome: Outcome;
    try {
      outcome = await withTransaction(deps.db, async (tx) => {
        scope.tx = tx;
        const result = await runKeepingChanges(() => next(req) as Promise<UnaryResponse>, scope, req);
        records = await writeRecords(tx, scope, req, result);
        return result;
      });
    } catch (thrown) {
      const error = connectErrorOf(thrown, req);
      records = await recordRefusal(deps.db, scope, req, error);
      await deps.publish(records);
      throw thrown;
    }
    await deps.publish(records);
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
async function recordRefusal(db: Db, scope: CallAudit, req: UnaryRequest, error: ConnectError): Promise<AuditRecord[]> {
  if (error.code === Code.Unavailable) return []; // the store itself is gone: nothing can be written
  try {
    return await withTransaction(db, (tx) => writeRecords(tx, { ...scope, extra: [] }, req, { error }));
  } catch (recordError) {
    requestFacts(req.contextValues).logger.error({ error: recordError }, "could not record the refused call in the audit log");
    return [];
  }
}

async function writeRecords(tx: Tx, scope: CallAudit, req: UnaryRequest, outcome: Outcome): Promise<AuditRecord[]> {
  const base = callFacts(scope, req, outcome);
  const records = [await recordAudit(tx, base)];
  for (const extra of scope.extra) records.push(await recordAudit(tx, { ...base, request: "", response: "", detail: {}, ...extra }));
  return records;
}

function callFacts(scope: CallAudit, req: UnaryRequest, outcome: Outcome): AuditEntry {
  const facts = requestFacts(req.contextValues);
  const error = "error" in outcome ? outcome.error : undefined;
  return {
    actor: scope.actor ?? req.contextValues.get(kPrincipal)?.name ?? ANONYMOUS_ACTOR,
    action: scope.action,
    severity: scope.severity ?? (error?.code === Code.Internal ? "ERROR" : "INFO"),
    resource: scope.resource ?? requestResource(req.method.input, req.message),
    actorIp: facts.clientIp,
    userAgent: facts.userAgent,
    method: `/${req.service.typeName}/${req.method.name}`,
    statusCode: error ? codeName(error.code) : "ok",
    statusMessage: error?.rawMessage ?? "",
    latencyUs: (performance.now() - facts.startedAt) * 1000,
    correlationId: facts.correlationId,
    request: redactedJson(req.method.input, req.message),
    response: "response" in outcome ? redactedJson(req.method.output, outcome.response.message) : "",
    detail: scope.detail,
  };
}

function connectErrorOf(thrown: unknown, req: UnaryRequest): ConnectError {
  return toConnectError(thrown, requestFacts(req.contextValues).correlationId).error;
}

/** Connect's wire name of a code, e.g. permission_denied. */
function codeName(code: Code): string {
  return Code[code].replace(/(?<=[a-z])(?=[A-Z])/g, "_").toLowerCase();
}
