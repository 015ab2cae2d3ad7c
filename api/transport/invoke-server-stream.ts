// Calls a server-streaming RPC in-process through the interceptor chain, as
// invoke-unary.ts does for unary ones: REST downloads enter here. The
// response's messages are produced as the caller reads them.
import { create, type DescMethodServerStreaming, type DescService, type Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type Interceptor, type StreamRequest, type StreamResponse } from "@connectrpc/connect";
import { composeChains, handlerContext, notImplemented, requestFields, type ImplFn, type InProcessCall } from "./method-chains.ts";
import { isServerStreaming, type ServiceRegistration } from "./services.ts";

export type ServerStreamCall = InProcessCall<DescMethodServerStreaming>;

export type ServerStreamInvoker = (call: ServerStreamCall) => Promise<StreamResponse>;

/** Composes the chain once per method at start-up; each call then only runs it. */
export function createServerStreamInvoker(registrations: readonly ServiceRegistration[], interceptors: readonly Interceptor[]): ServerStreamInvoker {
  const chainOf = composeChains(registrations, interceptors, isServerStreaming, implementationCall);
  return (call) => chainOf(call.method)({ ...requestFields(call), stream: true, message: single(call.message) } as StreamRequest);
}

function implementationCall(service: DescService, method: DescMethodServerStreaming, fn: ImplFn | undefined) {
  return async (req: StreamRequest): Promise<StreamResponse> => {
    if (!fn) throw notImplemented(service, method);
    const context = handlerContext(req);
    const input = await onlyMessage(req.message);
    return {
      stream: true,
      service,
      method,
      header: context.responseHeader,
      trailer: context.responseTrailer,
      message: outputMessages(method, fn(input, context) as AsyncIterable<unknown>),
    };
  };
}

async function* single(message: Message): AsyncIterable<Message> {
  yield message;
}

async function onlyMessage(messages: AsyncIterable<Message>): Promise<Message> {
  for await (const message of messages) return message;
  throw new ConnectError("the request message is missing", Code.InvalidArgument);
}

async function* outputMessages(method: DescMethodServerStreaming, outputs: AsyncIterable<unknown>): AsyncIterable<Message> {
  for await (const output of outputs) yield create(method.output, output as never);
}
