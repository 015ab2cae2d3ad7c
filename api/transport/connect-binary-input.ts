// Binary request messages on connect-fastify's paths (Connect unary and
// streaming, gRPC, gRPC-Web, Connect GET) are parsed once ahead of connect,
// with the fast path's parser (binary-request.ts): bytes that are no message
// of the input type, or a GET message that is not base64, answer
// invalid_argument in every protocol instead of connect's internal. A body
// passes on unchanged and connect reads it as before; an audited method's
// broken message passes on as an empty one carrying the refusal, which the
// audit hook records (audit-undecodable.ts), as on the in-process paths. An
// audited method's JSON messages are parsed ahead too, as connect parses
// them, so that one it cannot decode (a lone surrogate) is recorded as well.
import type { DescMethod, Message } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { Code, ConnectError, type ContextValues, type HandlerContext } from "@connectrpc/connect";
import {
  compressedFlag,
  compressionNegotiate,
  createMethodSerializationLookup,
  pipe,
  readAllBytes,
  transformJoinEnvelopes,
  transformSplitEnvelope,
  type Compression,
  type UniversalServerRequest,
} from "@connectrpc/connect/protocol";
import * as connect from "@connectrpc/connect/protocol-connect";
import * as grpc from "@connectrpc/connect/protocol-grpc";
import * as grpcWeb from "@connectrpc/connect/protocol-grpc-web";
import { parseBinaryRequest } from "./binary-request.ts";
import { decodedRequest, undecodableRefusal } from "./interceptors/audit-undecodable.ts";
import { methodOptions } from "./method-options.ts";

export interface BinaryInputOptions {
  acceptCompression: Compression[];
  readMaxBytes: number;
}

type Framing = { kind: "unary" | "enveloped"; encodingHeader: string; acceptEncodingHeader: string; binary: boolean };

/** The request with its binary body (or an audited method's JSON body) checked as connect reads it; other requests as they are. */
export function withCheckedBody(req: UniversalServerRequest, method: DescMethod, options: BinaryInputOptions): UniversalServerRequest {
  const framing = framingOf(req.header.get(connect.headerContentType) ?? "");
  if (req.method !== "POST" || !framing || !isByteStream(req.body)) return req;
  if (!framing.binary && !methodOptions(method).auditAction) return req; // connect refuses broken JSON itself
  const negotiated = compressionNegotiate(options.acceptCompression, req.header.get(framing.encodingHeader), null, framing.acceptEncodingHeader);
  if (negotiated.error) return req; // connect refuses the encoding itself
  const check: Check = {
    method,
    binary: framing.binary,
    contextValues: req.contextValues,
    compression: negotiated.request,
    readMaxBytes: options.readMaxBytes,
  };
  if (framing.kind === "enveloped") return { ...req, body: checkedEnvelopes(req.body, check) };
  // Read and checked here against the declared length; the body passed on may be another one.
  const header = new Headers(req.header);
  header.delete(connect.headerUnaryContentLength);
  return { ...req, header, body: checkedUnaryBody(req.body, check, req.header.get(connect.headerUnaryContentLength)) };
}

/**
 * connect's request gate: a Connect GET's message (query parameters
 * `message`, `base64`, `encoding`, `compression`) is decoded and, when
 * binary, parsed as connect will, so that a broken one is invalid_argument.
 */
export async function checkGetMessage(context: HandlerContext, options: BinaryInputOptions): Promise<void> {
  if (context.requestMethod !== "GET" || context.protocolName !== "connect") return;
  const query = new URL(context.url).searchParams;
  const binary = query.get("encoding") === "proto";
  const base64 = query.get("base64") === "1";
  if (!binary && !base64) return;
  const text = query.get("message") ?? "";
  let bytes: Uint8Array = new TextEncoder().encode(text);
  if (base64) {
    try {
      bytes = base64Decode(text);
    } catch {
      throw new ConnectError("message: the query parameter is not valid base64 (base64=1)", Code.InvalidArgument);
    }
  }
  const compression = options.acceptCompression.find((c) => c.name === query.get("compression"));
  if (compression) bytes = await compression.decompress(bytes, options.readMaxBytes);
  if (binary) parseBinaryRequest(context.method.input, bytes);
}

interface Check {
  method: DescMethod;
  binary: boolean;
  contextValues: ContextValues | undefined;
  compression: Compression | null;
  readMaxBytes: number;
}

/** An empty message in each encoding: what goes on in place of a broken one. */
const EMPTY = { binary: new Uint8Array(0), json: new TextEncoder().encode("{}") };
const emptyMessage = (check: Check) => (check.binary ? EMPTY.binary : EMPTY.json);

/** A Connect unary binary body: read whole (as connect does, with its limit), checked, passed on. */
async function* checkedUnaryBody(body: AsyncIterable<Uint8Array>, check: Check, contentLength: string | null): AsyncIterable<Uint8Array> {
  const bytes = await readAllBytes(body, check.readMaxBytes, contentLength);
  const plain = check.compression ? await check.compression.decompress(bytes, check.readMaxBytes) : bytes;
  if (parses(plain, check)) yield bytes;
  else yield check.compression ? await check.compression.compress(emptyMessage(check)) : emptyMessage(check);
}

/** An enveloped body (Connect streaming, gRPC, gRPC-Web): each message envelope checked on its way. */
function checkedEnvelopes(body: AsyncIterable<Uint8Array>, check: Check): AsyncIterable<Uint8Array> {
  return pipe(body, transformSplitEnvelope(check.readMaxBytes), (envelopes) => checkEach(envelopes, check), transformJoinEnvelopes());
}

async function* checkEach(envelopes: AsyncIterable<{ flags: number; data: Uint8Array }>, check: Check) {
  for await (const envelope of envelopes) {
    const compressed = (envelope.flags & compressedFlag) === compressedFlag;
    const isMessage = (envelope.flags & ~compressedFlag) === 0; // not an end-of-stream or trailer frame
    if (!isMessage || (compressed && !check.compression)) {
      yield envelope;
      continue;
    }
    const data = compressed ? await check.compression!.decompress(envelope.data, check.readMaxBytes) : envelope.data;
    yield parses(data, check) ? envelope : { flags: 0, data: emptyMessage(check) };
  }
}

/**
 * Whether the bytes are a message of the method's input type. A broken one
 * throws invalid_argument, except for an audited method, whose call goes on
 * with an empty message carrying the refusal.
 */
function parses(bytes: Uint8Array, check: Check): boolean {
  const { method, contextValues } = check;
  const parse = () => (check.binary ? parseBinaryRequest(method.input, bytes) : jsonParser(method, check.readMaxBytes).parse(bytes));
  if (!contextValues) {
    parse();
    return true;
  }
  decodedRequest(method, contextValues, parse);
  return undecodableRefusal(contextValues) === undefined;
}

/** How a body is framed and encoded, by its content type; undefined for gRPC-Web text and anything else. */
function framingOf(contentType: string): Framing | undefined {
  const connectType = connect.parseContentType(contentType);
  if (connectType) {
    const { binary } = connectType;
    return connectType.stream
      ? { kind: "enveloped", encodingHeader: connect.headerStreamEncoding, acceptEncodingHeader: connect.headerStreamAcceptEncoding, binary }
      : { kind: "unary", encodingHeader: connect.headerUnaryEncoding, acceptEncodingHeader: connect.headerUnaryAcceptEncoding, binary };
  }
  const grpcType = grpc.parseContentType(contentType) ?? grpcWeb.parseContentType(contentType);
  if (grpcType && !("text" in grpcType && grpcType.text)) return { kind: "enveloped", encodingHeader: grpc.headerEncoding, acceptEncodingHeader: grpc.headerAcceptEncoding, binary: grpcType.binary };
  return undefined;
}

const jsonParsers = new WeakMap<DescMethod, { parse: (bytes: Uint8Array) => Message }>();

/** connect's own JSON parser of the method's requests (unknown fields and errors as connect treats them). */
function jsonParser(method: DescMethod, readMaxBytes: number): { parse: (bytes: Uint8Array) => Message } {
  let parser = jsonParsers.get(method);
  if (!parser) {
    parser = createMethodSerializationLookup(method, undefined, undefined, { readMaxBytes, writeMaxBytes: 0xffffffff }).getI(false);
    jsonParsers.set(method, parser);
  }
  return parser;
}

function isByteStream(body: UniversalServerRequest["body"]): body is AsyncIterable<Uint8Array> {
  return typeof body === "object" && body !== null && Symbol.asyncIterator in body;
}
