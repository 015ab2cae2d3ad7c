// Calls a unary RPC in-process through the interceptor chain. REST and the
// Connect unary fast path both enter here; streaming, gRPC and gRPC-Web go
// through connect-fastify with the same interceptors.
import { create, type DescMethodUnary, type DescService, type Message } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ContextValues,
  type HandlerContext,
  type Interceptor,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { isUnary, type ServiceRegistration } from "./services.ts";

export interface UnaryCall {
  method: DescMethodUnary;
  message: Message;
  requestMethod: string;
  url: string;
  header: Headers;
  contextValues: ContextValues;
  signal: AbortSignal;
  protocolName: string;
  /** Deadline the client asked for, in milliseconds. */
  timeoutMs?: number;
}

export type UnaryInvoker = (call: UnaryCall) => Promise<UnaryResponse>;

type UnaryFn = (req: UnaryRequest) => Promise<UnaryResponse>;
type ImplFn = (message: Message, context: HandlerContext) => Promise<unknown> | unknown;

/** Composes the chain once per method at start-up; each call then only runs it. */
export function createUnaryInvoker(registrations: readonly ServiceRegistration[], interceptors: readonly Interceptor[]): UnaryInvoker {
  const chains = new Map<DescMethodUnary, UnaryFn>();
  for (const { service, impl } of registrations) {
    for (const method of service.methods) {
      if (!isUnary(method)) continue;
      const fn = (impl as Record<string, ImplFn | undefined>)[method.localName];
      const final = implementationCall(service, method, fn?.bind(impl));
      chains.set(method, interceptors.reduceRight<UnaryFn>((next, interceptor) => interceptor(next as never) as UnaryFn, final));
    }
  }
  return (call) => {
    const chain = chains.get(call.method);
    if (!chain) throw new ConnectError(`${call.method.parent.typeName}.${call.method.name} is not served`, Code.Unimplemented);
    return chain({
      stream: false,
      service: call.method.parent,
      method: call.method,
      message: call.message,
      requestMethod: call.requestMethod,
      url: call.url,
      signal: call.signal,
      header: call.header,
      contextValues: call.contextValues,
      protocolName: call.protocolName,
      timeoutMs: call.timeoutMs,
    } as UnaryRequest);
  };
}

function implementationCall(service: DescService, method: DescMethodUnary, fn: ImplFn | undefined): UnaryFn {
  return async (req) => {
    if (!fn) throw new ConnectError(`${service.typeName}.${method.name} is not implemented`, Code.Unimplemented);
    const extra = req as UnaryRequest & { protocolName?: string; timeoutMs?: number };
    const deadline = extra.timeoutMs === undefined ? undefined : Date.now() + extra.timeoutMs;
    const context: HandlerContext = {
      method,
      service,
      signal: req.signal,
      timeoutMs: () => (deadline === undefined ? undefined : deadline - Date.now()),
      requestMethod: req.requestMethod,
      requestHeader: req.header,
      responseHeader: new Headers(),
      responseTrailer: new Headers(),
      protocolName: extra.protocolName ?? "connect",
      values: req.contextValues,
      url: req.url,
    };
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
