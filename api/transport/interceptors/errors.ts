// Maps domain and unexpected errors to Connect errors, for unary results and
// for errors raised while a response stream is produced.
import type { Interceptor, StreamResponse } from "@connectrpc/connect";
import { toConnectError } from "../connect-error.ts";
import { requestFacts } from "../context.ts";

export const errorsInterceptor: Interceptor = (next) => async (req) => {
  const { correlationId } = requestFacts(req.contextValues);
  try {
    const res = await next(req);
    if (!res.stream) return res;
    return { ...res, message: mapStreamErrors(res.message, correlationId) } as StreamResponse;
  } catch (thrown) {
    throw toConnectError(thrown, correlationId).error;
  }
};

async function* mapStreamErrors<T>(messages: AsyncIterable<T>, correlationId: string): AsyncIterable<T> {
  try {
    yield* messages;
  } catch (thrown) {
    throw toConnectError(thrown, correlationId).error;
  }
}
