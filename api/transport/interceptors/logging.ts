// One log line per RPC, on the request's child logger (it carries correlation_id);
// a streamed response logs when its stream ends.
import { Code, ConnectError, type Interceptor, type StreamResponse } from "@connectrpc/connect";
import { requestFacts, type RequestFacts } from "../context.ts";

const CLIENT_CODES = new Set([
  Code.InvalidArgument,
  Code.NotFound,
  Code.AlreadyExists,
  Code.PermissionDenied,
  Code.Unauthenticated,
  Code.FailedPrecondition,
  Code.Aborted,
  Code.OutOfRange,
  Code.ResourceExhausted,
  Code.Canceled,
]);

export const loggingInterceptor: Interceptor = (next) => async (req) => {
  const facts = requestFacts(req.contextValues);
  const rpc = `${req.service.typeName}/${req.method.name}`;
  try {
    const res = await next(req);
    if (res.stream) return { ...res, message: loggedWhenDone(res.message, facts, rpc) } as StreamResponse;
    facts.logger.debug({ rpc, protocol: facts.protocol, duration_ms: elapsed(facts.startedAt) }, "rpc done");
    return res;
  } catch (thrown) {
    throw logFailure(thrown, facts, rpc);
  }
};

/** A response stream logs when it ends, as a unary call does when it returns. */
async function* loggedWhenDone<T>(messages: AsyncIterable<T>, facts: RequestFacts, rpc: string): AsyncGenerator<T> {
  try {
    yield* messages;
    facts.logger.debug({ rpc, protocol: facts.protocol, duration_ms: elapsed(facts.startedAt) }, "rpc done");
  } catch (thrown) {
    throw logFailure(thrown, facts, rpc);
  }
}

function logFailure(thrown: unknown, facts: RequestFacts, rpc: string): ConnectError {
  const error = ConnectError.from(thrown);
  const fields = { rpc, protocol: facts.protocol, code: Code[error.code], duration_ms: elapsed(facts.startedAt) };
  if (CLIENT_CODES.has(error.code)) facts.logger.info({ ...fields, reason: error.rawMessage }, "rpc refused");
  else facts.logger.error({ ...fields, error: error.cause ?? error }, "rpc failed");
  return error;
}

function elapsed(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 1000) / 1000;
}
