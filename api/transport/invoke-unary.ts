// Calls a unary RPC in-process through the interceptor chain. REST and the
// Connect unary fast path both enter here; REST downloads enter the same chain
// through invoke-server-stream.ts; Connect streaming, gRPC and gRPC-Web go
// through connect-fastify with the same interceptors.
import { create, type DescMethodUnary, type DescService } from "@bufbuild/protobuf";
import type { Interceptor, UnaryRequest, UnaryResponse } from "@connectrpc/connect";
import { composeChains, handlerContext, notImplemented, requestFields, type ImplFn, type InProcessCall } from "./method-chains.ts";
import { isUnary, type ServiceRegistration } from "./services.ts";

export type UnaryCall = InProcessCall<DescMethodUnary>;

export type UnaryInvoker = (call: UnaryCall) => Promise<UnaryResponse>;

/** Composes the chain once per method at start-up; each call then only runs it. */
export function createUnaryInvoker(registrations: readonly ServiceRegistration[], interceptors: readonly Interceptor[]): UnaryInvoker {
  const chainOf = composeChains(registrations, interceptors, isUnary, implementationCall);
  return (call) => chainOf(call.method)({ ...requestFields(call), stream: false, message: call.message } as UnaryRequest);
}

function implementationCall(service: DescService, method: DescMethodUnary, fn: ImplFn | undefined) {
  return async (req: UnaryRequest): Promise<UnaryResponse> => {
    if (!fn) throw notImplemented(service, method);
    const context = handlerContext(req);
    const output = await fn(req.message, context);
    return {
      stream: false,
      service,
      method,
      header: context.responseHeader,
      trailer: context.responseTrailer,
      message: create(method.output, output as never),
    };
  };
}
