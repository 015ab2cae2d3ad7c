// Keeps what connect-fastify answers to the contract (§1): each of the
// router's handlers is wrapped so that binary request messages are checked
// ahead of connect (connect-binary-input.ts), and its bodiless 405 and 415
// refusals carry the one error body. connect-fastify reads router.handlers
// after its `routes` option returns, which is where the wrapping happens.
import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { createAsyncIterable, type UniversalHandler, type UniversalServerRequest, type UniversalServerResponse } from "@connectrpc/connect/protocol";
import { errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { type BinaryInputOptions, withCheckedBody } from "./connect-binary-input.ts";
import { quoted } from "../../shared/platform/index.ts";

/** Wraps each handler in place. */
export function guardHandlers(handlers: UniversalHandler[], options: BinaryInputOptions): void {
  handlers.forEach((handler, i) => {
    handlers[i] = guarded(handler, options);
  });
}

/** The refusal of a Content-Type no protocol serves, in the words of both Connect paths. */
export function unsupportedContentType(contentType: string, method: DescMethod): ConnectError {
  const accepted = method.methodKind === "unary" ? UNARY_TYPES : STREAM_TYPES;
  return new ConnectError(`unsupported Content-Type ${quoted(contentType)}; send ${accepted}`, Code.InvalidArgument);
}

const UNARY_TYPES = "application/json or application/proto (Connect), application/grpc or application/grpc-web";
const STREAM_TYPES = "application/connect+json or application/connect+proto (Connect), application/grpc or application/grpc-web";

function guarded(handler: UniversalHandler, options: BinaryInputOptions): UniversalHandler {
  const guard = async (req: UniversalServerRequest): Promise<UniversalServerResponse> => {
    const res = await handler(withCheckedBody(req, handler.method, options));
    if (res.body !== undefined) return res;
    if (res.status === 405) return withErrorBody(res, methodNotAllowed(req, handler), { allow: handler.allowedMethods.join(", ") });
    if (res.status === 415) return withErrorBody(res, unsupported(req, handler.method));
    return res;
  };
  return Object.assign(guard, {
    protocolNames: handler.protocolNames,
    service: handler.service,
    method: handler.method,
    requestPath: handler.requestPath,
    allowedMethods: handler.allowedMethods,
    supportedContentType: handler.supportedContentType,
  });
}

function methodNotAllowed(req: UniversalServerRequest, handler: UniversalHandler): ConnectError {
  return new ConnectError(`${req.method} is not allowed on ${handler.requestPath}; use ${handler.allowedMethods.join(" or ")}`, Code.Unimplemented);
}

function unsupported(req: UniversalServerRequest, method: DescMethod): ConnectError {
  if (req.method === "GET") {
    return new ConnectError("a Connect GET needs the query parameters encoding (json or proto) and message", Code.InvalidArgument);
  }
  return unsupportedContentType(req.header.get("content-type") ?? "", method);
}

function withErrorBody(res: UniversalServerResponse, error: ConnectError, extra: Record<string, string> = {}): UniversalServerResponse {
  const body = errorToJsonBytes(error, {});
  const header = new Headers(res.header);
  header.set("content-type", "application/json");
  header.set("content-length", String(body.byteLength));
  for (const [key, value] of Object.entries(extra)) header.set(key, value);
  return { ...res, header, body: createAsyncIterable([body]) };
}
