// Answers a unary Connect POST in-process through invokeUnary, following
// connect's own unary handler step by step with its protocol helpers. A
// byte-comparison test keeps it identical to connect-fastify (guides:
// stack-proto §7b); both parse binary requests with binary-request.ts
// (connect-fastify's through connect-guard.ts).
import { Code, ConnectError } from "@connectrpc/connect";
import type { Message } from "@bufbuild/protobuf";
import { compressionNegotiate, getJsonOptions } from "@connectrpc/connect/protocol";
import {
  contentTypeUnaryJson,
  contentTypeUnaryProto,
  errorToJsonBytes,
  headerContentType,
  headerTimeout,
  headerUnaryAcceptEncoding,
  headerUnaryContentLength,
  headerUnaryEncoding,
  parseContentType,
  parseTimeout,
} from "@connectrpc/connect/protocol-connect";
import type { FastifyReply, FastifyRequest } from "fastify";
import { startDeadline } from "./call-deadline.ts";
import { toConnectError } from "./connect-error.ts";
import { abortWhenClientLeaves, requestContextValues, requestHeaders } from "./context.ts";
import { httpStatusOf } from "./http-status.ts";
import { binaryOnce, encodedOnce } from "./frozen-replies.ts";
import { decodedRequest } from "./interceptors/audit-undecodable.ts";
import { jsonText } from "./json-text.ts";
import { writeRaw } from "./raw-reply.ts";
import { sendError } from "./error-reply.ts";
import { MAX_TIMEOUT_MS, type FastUnaryOptions, type UnaryRoute } from "./fast-unary-route.ts";

export async function answerConnect(options: FastUnaryOptions, route: UnaryRoute, binary: boolean, req: FastifyRequest, reply: FastifyReply) {
  const header = requestHeaders(req);
  const timeout = parseTimeout(header.get(headerTimeout), MAX_TIMEOUT_MS);
  const compression = compressionNegotiate(
    options.acceptCompression,
    header.get(headerUnaryEncoding),
    header.get(headerUnaryAcceptEncoding),
    headerUnaryAcceptEncoding,
  );
  const responseHeader = new Headers(); // then set: a record initialiser costs more than twice as much
  responseHeader.set(headerContentType, binary ? contentTypeUnaryProto : contentTypeUnaryJson);
  let responseTrailer: Headers | undefined;
  let status = 200;
  let body: Uint8Array | string;
  const { controller, release } = abortWhenClientLeaves(reply);
  const deadline = startDeadline(controller, timeout.timeoutMs);
  try {
    if (compression.error) throw compression.error;
    if (timeout.error) throw timeout.error;
    let bytes = await readBody(req, options.readMaxBytes);
    if (compression.request) bytes = await compression.request.decompress(bytes, options.readMaxBytes);
    const contextValues = requestContextValues(req, "connect");
    const message = decodedRequest(route.method, contextValues, () => route.serialization.getI(binary).parse(bytes));
    const pending = options.invoke({
      method: route.method,
      message,
      requestMethod: "POST",
      url: req.url,
      header,
      contextValues,
      signal: controller.signal,
      protocolName: "connect",
      timeoutMs: timeout.timeoutMs,
    });
    const res = await deadline.race(pending);
    res.header.forEach((value, key) => responseHeader.append(key, value)); // append: each Set-Cookie is its own
    responseTrailer = res.trailer;
    body = binary ? binaryOnce(route, res.message) : encodedOnce(res.message, route, () => responseJsonText(route, res.message));
  } catch (thrown) {
    const error = toConnectError(thrown, req.id).error;
    status = error.code === Code.ResourceExhausted && error.cause === OVERSIZED ? 413 : httpStatusOf(error.code);
    responseHeader.set(headerContentType, contentTypeUnaryJson);
    error.metadata.forEach((value, key) => {
      if (!PROTOCOL_HEADERS.has(key)) responseHeader.set(key, value);
    });
    body = errorToJsonBytes(error, {});
  } finally {
    deadline.clear();
    release();
  }
  let size = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  if (compression.response && size >= options.compressMinBytes) {
    body = await compression.response.compress(typeof body === "string" ? Buffer.from(body) : body);
    size = body.byteLength;
    responseHeader.set(headerUnaryEncoding, compression.response.name);
  }
  // Trailers travel as trailer- headers (connect's trailerMux, without its copy of the headers).
  responseTrailer?.forEach((value, key) => responseHeader.append(`trailer-${key}`, value));
  responseHeader.set(headerUnaryContentLength, String(size));
  await writeRaw(reply, status, responseHeader, body);
}

/** The response in JSON, as connect's serializer writes it before encoding it. */
function responseJsonText(route: UnaryRoute, message: Message): string {
  try {
    return jsonText(route.method.output, message, JSON_OPTIONS);
  } catch (error) {
    throw ConnectError.from(error, Code.Internal);
  }
}

const JSON_OPTIONS = getJsonOptions(undefined);

const OVERSIZED = Symbol("oversized body");

const PROTOCOL_HEADERS = new Set(["content-type", "content-length", "content-encoding", "accept-encoding", "connect-timeout-ms", "connect-protocol-version"]);

function readBody(req: FastifyRequest, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > maxBytes) return Promise.reject(oversized(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stream = req.raw;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        stream.removeAllListeners("data");
        stream.resume();
        reject(oversized(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    stream.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    stream.once("error", reject);
  });
}

function oversized(maxBytes: number): ConnectError {
  return new ConnectError(`the request body is larger than ${maxBytes} bytes`, Code.ResourceExhausted, undefined, undefined, OVERSIZED);
}
