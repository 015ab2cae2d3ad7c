// One log line per RPC, on the request's child logger (it carries correlation_id).
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { requestFacts } from "../context.ts";

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
    facts.logger.debug({ rpc, protocol: facts.protocol, duration_ms: elapsed(facts.startedAt) }, "rpc done");
    return res;
  } catch (thrown) {
    const error = ConnectError.from(thrown);
    const fields = { rpc, protocol: facts.protocol, code: Code[error.code], duration_ms: elapsed(facts.startedAt) };
    if (CLIENT_CODES.has(error.code)) facts.logger.info({ ...fields, reason: error.rawMessage }, "rpc refused");
    else facts.logger.error({ ...fields, error: error.cause ?? error }, "rpc failed");
    throw error;
  }
};

function elapsed(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 1000) / 1000;
}
