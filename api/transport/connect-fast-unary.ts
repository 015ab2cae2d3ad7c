// Answers unary Connect POSTs in-process through invokeUnary, following
// connect's own unary handler step by step with its protocol helpers; every
// other request falls through to connect-fastify. A byte-comparison test
// keeps the two paths identical (guides: stack-proto §7b); both parse binary
// requests with binary-request.ts (connect-fastify's through connect-guard.ts).
import type { DescMethodUnary, DescService } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { compressionNegotiate, createMethodSerializationLookup, type Compression, type MethodSerializationLookup } from "@connectrpc/connect/protocol";
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
  trailerMux,
} from "@connectrpc/connect/protocol-connect";
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { withBinaryRequestParse } from "./binary-request.ts";
import { toConnectError } from "./connect-error.ts";
import { unsupportedContentType } from "./connect-guard.ts";
import { abortWhenClientLeaves, requestContextValues, requestHeaders } from "./context.ts";
import { httpStatusOf } from "./http-status.ts";
import { decodedRequest } from "./interceptors/audit-undecodable.ts";
import { sendError } from "./error-reply.ts";
import type { UnaryInvoker } from "./invoke-unary.ts";
import { isUnary } from "./services.ts";

export interface FastUnaryOptions {
  services: readonly DescService[];
  invoke: UnaryInvoker;
  readMaxBytes: number;
  compressMinBytes: number;
  acceptCompression: Compression[];
}

interface UnaryRoute {
  method: DescMethodUnary;
  serialization: MethodSerializationLookup<DescMethodUnary["input"], DescMethodUnary["output"]>;
}

const MAX_TIMEOUT_MS = 0; // no server-side cap on client deadlines

export function createFastUnaryHook(options: FastUnaryOptions): preHandlerAsyncHookHandler {
  const routes = new Map<string, UnaryRoute>();
  for (const service of options.services) {
    for (const method of service.methods) {
      if (!isUnary(method)) continue;
      const serialization = createMethodSerializationLookup(method, undefined, undefined, {
        readMaxBytes: options.readMaxBytes,
        writeMaxBytes: 0xffffffff,
      });
      routes.set(`/${service.typeName}/${method.name}`, { method, serialization: withBinaryRequestParse(method.input, serialization) });
    }
  }
  return async function fastUnary(req: FastifyRequest, reply: FastifyReply) {
    if (req.method !== "POST") return;
    const route = routes.get(req.routeOptions.url ?? "");
    const contentType = req.headers["content-type"] ?? "";
    const type = parseContentType(contentType);
    if (route && !type && !RPC_CONTENT_TYPE.test(contentType)) return sendError(reply, unsupportedContentType(contentType, route.method), 415);
    if (!route || !type || type.stream) return; // connect-fastify answers these
    await answer(options, route, type.binary, req, reply);
    return reply;
  };
}

async function answer(options: FastUnaryOptions, route: UnaryRoute, binary: boolean, req: FastifyRequest, reply: FastifyReply) {
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
  let responseTrailer = new Headers();
  let status = 200;
  let body: Uint8Array;
  const { controller, release } = abortWhenClientLeaves(reply);
  let timer: NodeJS.Timeout | undefined;
  try {
    if (compression.error) throw compression.error;
    if (timeout.error) throw timeout.error;
    if (timeout.timeoutMs !== undefined) {
      timer = setTimeout(() => controller.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded)), timeout.timeoutMs);
    }
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
    const res = await (timer ? raceAbort(pending, controller.signal) : pending);
    res.header.forEach((value, key) => responseHeader.set(key, value));
    responseTrailer = res.trailer;
    body = route.serialization.getO(binary).serialize(res.message);
  } catch (thrown) {
    const error = toConnectError(thrown, req.id).error;
    status = error.code === Code.ResourceExhausted && error.cause === OVERSIZED ? 413 : httpStatusOf(error.code);
    responseHeader.set(headerContentType, contentTypeUnaryJson);
    error.metadata.forEach((value, key) => {
      if (!PROTOCOL_HEADERS.has(key)) responseHeader.set(key, value);
    });
    body = errorToJsonBytes(error, {});
  } finally {
    clearTimeout(timer);
    release();
  }
  if (compression.response && body.byteLength >= options.compressMinBytes) {
    body = await compression.response.compress(body);
    responseHeader.set(headerUnaryEncoding, compression.response.name);
  }
  const headers = trailerMux(responseHeader, responseTrailer);
  headers.set(headerUnaryContentLength, String(body.byteLength));
  reply.code(status);
  headers.forEach((value, key) => reply.header(key, value));
  const setCookies = headers.getSetCookie();
  if (setCookies.length > 1) reply.header("set-cookie", setCookies);
  return reply.send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
}

const OVERSIZED = Symbol("oversized body");
// Content types of the protocols connect-fastify serves (Connect streaming, gRPC, gRPC-Web).
const RPC_CONTENT_TYPE = /^application\/(connect\+|grpc)/i;

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

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
