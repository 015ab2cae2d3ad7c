// The interceptor chain of every served method, composed once at start-up,
// for the in-process invokers (invoke-unary.ts, invoke-server-stream.ts);
// and the handler's view of an in-process call.
import type { DescMethod, DescService, Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type ContextValues, type HandlerContext, type Interceptor, type StreamRequest, type UnaryRequest } from "@connectrpc/connect";
import type { ServiceRegistration } from "./services.ts";

/** A call made in-process: REST and the Connect fast path build one per request. */
export interface InProcessCall<M extends DescMethod> {
  method: M;
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

/** A service implementation's method, as registered. */
export type ImplFn = (message: Message, context: HandlerContext) => unknown;

type Step<Req, Res> = (req: Req) => Promise<Res>;

/** Each method of the kind `served` picks, behind the chain; a method nobody serves answers unimplemented. */
export function composeChains<M extends DescMethod, Req, Res>(
  registrations: readonly ServiceRegistration[],
  interceptors: readonly Interceptor[],
  served: (method: DescMethod) => method is M,
  implementationCall: (service: DescService, method: M, fn: ImplFn | undefined) => Step<Req, Res>,
): (method: M) => Step<Req, Res> {
  const chains = new Map<M, Step<Req, Res>>();
  for (const { service, impl } of registrations) {
    for (const method of service.methods) {
      if (!served(method)) continue;
      const fn = (impl as Record<string, ImplFn | undefined>)[method.localName];
      const final = implementationCall(service, method, fn?.bind(impl));
      chains.set(method, interceptors.reduceRight<Step<Req, Res>>((next, interceptor) => interceptor(next as never) as never, final));
    }
  }
  return (method) => {
    const chain = chains.get(method);
    if (!chain) throw new ConnectError(`${method.parent.typeName}.${method.name} is not served`, Code.Unimplemented);
    return chain;
  };
}

/** The request fields both kinds of call share. */
export function requestFields(call: InProcessCall<DescMethod>) {
  return {
    service: call.method.parent,
    method: call.method,
    requestMethod: call.requestMethod,
    url: call.url,
    signal: call.signal,
    header: call.header,
    contextValues: call.contextValues,
    protocolName: call.protocolName,
    timeoutMs: call.timeoutMs,
  };
}

export function notImplemented(service: DescService, method: DescMethod): ConnectError {
  return new ConnectError(`${service.typeName}.${method.name} is not implemented`, Code.Unimplemented);
}

/** The handler's view of an in-process call. */
export function handlerContext(req: UnaryRequest | StreamRequest): HandlerContext {
  const extra = req as typeof req & { protocolName?: string; timeoutMs?: number };
  const deadline = extra.timeoutMs === undefined ? undefined : Date.now() + extra.timeoutMs;
  return {
    method: req.method,
    service: req.service,
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
}
