// Answers a unary gRPC call (HTTP/2) in-process through invokeUnary,
// following connect's own gRPC handler with its protocol helpers: one
// enveloped request message in; headers, at most one enveloped response
// message and the grpc-status trailers out. A byte-comparison test keeps it
// identical to connect-fastify (guides: stack-proto §7b).
import { Code, ConnectError } from "@connectrpc/connect";
import { compressionNegotiate, encodeEnvelope, envelopeCompress, envelopeDecompress, pipe, transformSplitEnvelope, type EnvelopedMessage } from "@connectrpc/connect/protocol";
import {
  contentTypeJson,
  contentTypeProto,
  grpcStatusOk,
  headerAcceptEncoding,
  headerContentType,
  headerEncoding,
  headerGrpcStatus,
  headerTimeout,
  parseTimeout,
  setTrailerStatus,
} from "@connectrpc/connect/protocol-grpc";
import type { FastifyReply, FastifyRequest } from "fastify";
import { startDeadline } from "./call-deadline.ts";
import { toConnectError } from "./connect-error.ts";
import { abortWhenClientLeaves, requestContextValues, requestHeaders } from "./context.ts";
import { MAX_TIMEOUT_MS, type FastUnaryOptions, type UnaryRoute } from "./fast-unary-route.ts";
import { binaryOnce } from "./frozen-replies.ts";
import { decodedRequest } from "./interceptors/audit-undecodable.ts";
import { writeRaw } from "./raw-reply.ts";

export async function answerGrpc(options: FastUnaryOptions, route: UnaryRoute, binary: boolean, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const header = requestHeaders(req);
  const timeout = parseTimeout(header.get(headerTimeout), MAX_TIMEOUT_MS);
  const compression = compressionNegotiate(options.acceptCompression, header.get(headerEncoding), header.get(headerAcceptEncoding), headerAcceptEncoding);
  const responseHeader = new Headers();
  responseHeader.set(headerContentType, binary ? contentTypeProto : contentTypeJson);
  if (compression.response) responseHeader.set(headerEncoding, compression.response.name);
  const trailer = new Headers();
  trailer.set(headerGrpcStatus, grpcStatusOk);
  let body: Uint8Array | undefined;
  const { controller, release } = abortWhenClientLeaves(reply);
  const deadline = startDeadline(controller, timeout.timeoutMs);
  try {
    if (compression.error) throw compression.error;
    if (timeout.error) throw timeout.error;
    const envelope = await envelopeDecompress(await singleEnvelope(req, options.readMaxBytes), compression.request, options.readMaxBytes);
    const contextValues = requestContextValues(req, "grpc");
    const message = decodedRequest(route.method, contextValues, () => route.serialization.getI(binary).parse(envelope.data));
    const call = { method: route.method, message, requestMethod: "POST", url: req.url, header, contextValues, signal: controller.signal };
    const res = await deadline.race(options.invoke({ ...call, protocolName: "grpc", timeoutMs: timeout.timeoutMs }));
    res.header.forEach((value, key) => responseHeader.append(key, value)); // append: each Set-Cookie is its own
    res.trailer.forEach((value, key) => trailer.append(key, value));
    const output = { flags: 0, data: binary ? binaryOnce(route, res.message) : route.serialization.getO(false).serialize(res.message) };
    const sent = await envelopeCompress(output, compression.response, options.compressMinBytes);
    body = encodeEnvelope(sent.flags, sent.data);
  } catch (thrown) {
    setTrailerStatus(trailer, toConnectError(thrown, req.id).error);
  } finally {
    deadline.clear();
    release();
  }
  await writeRaw(reply, 200, responseHeader, body, trailer);
}

/** The request's one message, as connect reads a unary call's input. */
async function singleEnvelope(req: FastifyRequest, readMaxBytes: number): Promise<EnvelopedMessage> {
  let first: EnvelopedMessage | undefined;
  for await (const envelope of pipe(req.raw as AsyncIterable<Uint8Array>, transformSplitEnvelope(readMaxBytes))) {
    if (first) throw new ConnectError("protocol error: received extra input message for unary method", Code.Unimplemented);
    first = envelope;
  }
  if (!first) throw new ConnectError("protocol error: missing input message for unary method", Code.Unimplemented);
  return first;
}
