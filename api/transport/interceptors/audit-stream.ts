// Audit of server-streaming calls (exports): no transaction is held while the
// stream runs. The handler states its facts (e.g. a row count) in the
// StreamAudit it gets from streamAuditScope(context); one record is written
// on its own when the stream ends — completed, failed, or abandoned by the
// client (recorded as canceled) — and then mirrored.
import type { Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type StreamRequest, type StreamResponse, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { type AuditFacts, newStreamAudit, recordAudit } from "../../../shared/governance/index.ts";
import { kStreamAudit } from "../audit-scope.ts";
import { requestFacts } from "../context.ts";
import { readServerStreamRequest } from "../stream-request.ts";
import type { AuditDeps } from "./audit.ts";
import { auditEntry, connectErrorOf, type AuditedCall } from "./audit-entry.ts";
import { undecodableRefusal } from "./audit-undecodable.ts";

type Next = (req: UnaryRequest | StreamRequest) => Promise<UnaryResponse | StreamResponse>;
type Finish = (error: ConnectError | undefined) => Promise<void>;

export async function auditServerStream(deps: AuditDeps, action: string, req: StreamRequest, next: Next): Promise<StreamResponse> {
  const facts = newStreamAudit(action);
  req.contextValues.set(kStreamAudit, facts);
  const { message, req: call } = await readServerStreamRequest(req);
  const undecodable = undecodableRefusal(req.contextValues);
  const finish: Finish = (error) => recordStreamEnd(deps, facts, req, undecodable ? undefined : message, error);
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

async function recordStreamEnd(deps: AuditDeps, facts: AuditFacts, call: AuditedCall, request: Message | undefined, error: ConnectError | undefined): Promise<void> {
  if (error?.code === Code.Unavailable) return; // the store itself is gone: nothing can be written
  const { logger } = requestFacts(call.contextValues);
  try {
    const record = await recordAudit(deps.db, auditEntry(facts, call, request, { error }));
    await deps.publish([record], logger);
  } catch (recordError) {
    logger.error({ error: recordError }, "could not record the streamed call in the audit log");
  }
}
