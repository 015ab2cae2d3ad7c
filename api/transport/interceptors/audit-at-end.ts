// Audit of calls recorded at their end: server streams (exports) and unary
// calls declaring audit_at_end (the SQL Editor's, whose work runs on a target
// database). No store transaction is held while the call runs, so a slow
// target never holds a store connection. The handler states its facts — the
// detail, and the store writes that go with the record (a query history
// entry) — in the AuditAtEnd it gets from auditAtEndScope(context); they are
// written in one short transaction when the call ends: completed, refused,
// failed, or (a stream) abandoned by the client, recorded as canceled. Then
// the record is mirrored.
import type { Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type StreamRequest, type StreamResponse, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { type AuditAtEnd, newAuditAtEnd, recordAudit } from "../../../shared/governance/index.ts";
import { withTransaction } from "../../../shared/platform/index.ts";
import { kAuditAtEnd } from "../audit-scope.ts";
import { requestFacts } from "../context.ts";
import { readServerStreamRequest } from "../stream-request.ts";
import type { AuditDeps } from "./audit.ts";
import { auditEntry, type AuditedCall, type CallEnd, connectErrorOf } from "./audit-entry.ts";
import { undecodableRefusal } from "./audit-undecodable.ts";

type Next = (req: UnaryRequest | StreamRequest) => Promise<UnaryResponse | StreamResponse>;
type Finish = (error: ConnectError | undefined) => Promise<void>;

export async function auditServerStream(deps: AuditDeps, action: string, req: StreamRequest, next: Next): Promise<StreamResponse> {
  const facts = newAuditAtEnd(action);
  req.contextValues.set(kAuditAtEnd, facts);
  const { message, req: call } = await readServerStreamRequest(req);
  const undecodable = undecodableRefusal(req.contextValues);
  const finish: Finish = (error) => recordOrLog(deps, facts, req, undecodable ? undefined : message, { error });
  let res: StreamResponse;
  try {
    if (undecodable) throw undecodable.error;
    res = (await next(call)) as StreamResponse;
  } catch (thrown) {
    await finish(connectErrorOf(thrown, req));
    throw thrown;
  }
  return { ...res, message: recordedWhenDone(res.message, finish, req) };
}

/**
 * A unary call declaring audit_at_end. A refusal or failure is recorded (a
 * failing record is logged, the call's own error answered); a success is
 * answered only once its record is written, as a transactional call's is.
 */
export async function auditUnaryAtEnd(deps: AuditDeps, action: string, req: UnaryRequest, next: Next): Promise<UnaryResponse> {
  const facts = newAuditAtEnd(action);
  req.contextValues.set(kAuditAtEnd, facts);
  const undecodable = undecodableRefusal(req.contextValues);
  const request = undecodable ? undefined : req.message;
  let res: UnaryResponse;
  try {
    if (undecodable) throw undecodable.error;
    res = (await next(req)) as UnaryResponse;
  } catch (thrown) {
    await recordOrLog(deps, facts, req, request, { error: connectErrorOf(thrown, req) });
    throw thrown;
  }
  await recordCallEnd(deps, facts, req, request, { response: res.message });
  return res;
}

async function* recordedWhenDone<T>(messages: AsyncIterable<T>, finish: Finish, call: AuditedCall): AsyncGenerator<T> {
  let end: ConnectError | undefined = new ConnectError("the client went away before the stream ended", Code.Canceled);
  try {
    yield* messages;
    end = undefined;
  } catch (thrown) {
    end = connectErrorOf(thrown, call);
    throw thrown;
  } finally {
    await finish(end);
  }
}

/** The record and the handler's writes, in one transaction; then the mirror. */
async function recordCallEnd(deps: AuditDeps, facts: AuditAtEnd, call: AuditedCall, request: Message | undefined, end: CallEnd): Promise<void> {
  const record = await withTransaction(deps.db, async (tx) => {
    for (const write of facts.withRecord) await write(tx);
    return recordAudit(tx, auditEntry(facts, call, request, end));
  });
  await deps.publish([record], requestFacts(call.contextValues).logger);
}

async function recordOrLog(deps: AuditDeps, facts: AuditAtEnd, call: AuditedCall, request: Message | undefined, end: CallEnd): Promise<void> {
  if (end.error?.code === Code.Unavailable) return; // the store itself is gone: nothing can be written
  try {
    await recordCallEnd(deps, facts, call, request, end);
  } catch (recordError) {
    requestFacts(call.contextValues).logger.error({ error: recordError }, "could not record the call in the audit log at its end");
  }
}
