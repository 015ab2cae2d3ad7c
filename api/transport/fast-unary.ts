// Unary calls answered in-process through invokeUnary, in front of
// connect-fastify: Connect POSTs (connect-fast-unary.ts) and gRPC over HTTP/2
// (grpc-fast-unary.ts), each following connect's own handler with its
// protocol helpers. Everything else (streams, Connect GET, gRPC-Web) falls
// through to connect-fastify, which runs the same interceptors.
import type { DescService } from "@bufbuild/protobuf";
import { createMethodSerializationLookup } from "@connectrpc/connect/protocol";
import { parseContentType as parseConnectType } from "@connectrpc/connect/protocol-connect";
import { parseContentType as parseGrpcType } from "@connectrpc/connect/protocol-grpc";
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { withBinaryRequestParse } from "./binary-request.ts";
import { answerConnect } from "./connect-fast-unary.ts";
import { unsupportedContentType } from "./connect-guard.ts";
import { sendError } from "./error-reply.ts";
import type { FastUnaryOptions, UnaryRoute } from "./fast-unary-route.ts";
import { answerGrpc } from "./grpc-fast-unary.ts";
import { isUnary } from "./services.ts";

// Content types of the protocols connect-fastify serves (Connect streaming, gRPC, gRPC-Web).
const RPC_CONTENT_TYPE = /^application\/(connect\+|grpc)/i;

export function createFastUnaryHook(services: readonly DescService[], options: FastUnaryOptions): onRequestAsyncHookHandler {
  const routes = unaryRoutes(services, options.readMaxBytes);
  return async function fastUnary(req: FastifyRequest, reply: FastifyReply) {
    if (req.method !== "POST") return;
    const route = routes.get(req.routeOptions.url ?? "");
    if (!route) return;
    const contentType = req.headers["content-type"] ?? "";
    const grpc = req.raw.httpVersionMajor === 2 ? parseGrpcType(contentType) : undefined;
    if (grpc) {
      await answerGrpc(options, route, grpc.binary, req, reply);
      return reply;
    }
    const type = parseConnectType(contentType);
    if (!type && !RPC_CONTENT_TYPE.test(contentType)) return sendError(reply, unsupportedContentType(contentType, route.method), 415);
    if (!type || type.stream) return; // connect-fastify answers these
    await answerConnect(options, route, type.binary, req, reply);
    return reply;
  };
}

function unaryRoutes(services: readonly DescService[], readMaxBytes: number): Map<string, UnaryRoute> {
  const routes = new Map<string, UnaryRoute>();
  for (const service of services) {
    for (const method of service.methods) {
      if (!isUnary(method)) continue;
      const serialization = createMethodSerializationLookup(method, undefined, undefined, { readMaxBytes, writeMaxBytes: 0xffffffff });
      routes.set(`/${service.typeName}/${method.name}`, { method, serialization: withBinaryRequestParse(method.input, serialization) });
    }
  }
  return routes;
}
