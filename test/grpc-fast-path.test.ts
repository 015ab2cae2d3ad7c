// The in-process unary gRPC path must answer like stock connect-fastify:
// status, headers, body and trailers, byte for byte. It uses connect helpers
// that do not follow semver, so an upgrade that changes the wire behaviour
// fails here (guides: stack-proto §7b).
import { connect, type IncomingHttpHeaders } from "node:http2";
import { describe } from "node:test";
import { gzipSync } from "node:zlib";
import { create, toBinary } from "@bufbuild/protobuf";
import { answersLikeStock } from "./helpers/fast-path-twins.ts";
import { envelope } from "./helpers/raw-rpc.ts";
import { CountThingsRequestSchema, FailRequestSchema, GetSecretThingRequestSchema, PolishThingRequestSchema } from "./gen/svctest/v1/transcoding_service_pb.js";

interface RawResponse {
  headers: IncomingHttpHeaders;
  body: Buffer;
  trailers: IncomingHttpHeaders;
}

function send(port: number, path: string, headers: Record<string, string>, body: Buffer): Promise<RawResponse> {
  const session = connect(`http://127.0.0.1:${port}`);
  return new Promise<RawResponse>((resolve, reject) => {
    session.on("error", reject);
    const stream = session.request({ ":method": "POST", ":path": path, te: "trailers", ...headers });
    let responseHeaders: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => (responseHeaders = h));
    stream.on("trailers", (t) => (trailers = t));
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve({ headers: responseHeaders, body: Buffer.concat(chunks), trailers }));
    stream.on("error", reject);
    stream.end(body);
  }).finally(() => session.close());
}

const IGNORED_HEADERS = new Set(["date"]);
const sorted = (headers: IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([k]) => !IGNORED_HEADERS.has(k)).sort());
const comparable = (res: RawResponse) => ({ headers: sorted(res.headers), body: res.body.toString("base64"), trailers: sorted(res.trailers) });

const count = (n: number) => toBinary(CountThingsRequestSchema, create(CountThingsRequestSchema, { count: n }));
const fail = (code: string, message = "") => envelope(toBinary(FailRequestSchema, create(FailRequestSchema, { code, message })));

const grpc = { "content-type": "application/grpc", "x-correlation-id": "same-id" };
const PATH = "/svctest.v1.TranscodingService";

const cases: [name: string, path: string, headers: Record<string, string>, body: Buffer][] = [
  ["binary success", `${PATH}/CountThings`, grpc, envelope(count(5))],
  ["+proto content type", `${PATH}/CountThings`, { ...grpc, "content-type": "application/grpc+proto" }, envelope(count(5))],
  ["JSON success", `${PATH}/CountThings`, { ...grpc, "content-type": "application/grpc+json" }, envelope(Buffer.from('{"count":3}'))],
  ["empty message", `${PATH}/CountThings`, grpc, envelope(Buffer.alloc(0))],
  ["no message", `${PATH}/CountThings`, grpc, Buffer.alloc(0)],
  ["two messages", `${PATH}/CountThings`, grpc, Buffer.concat([envelope(count(1)), envelope(count(2))])],
  ["a cut envelope", `${PATH}/CountThings`, grpc, envelope(count(300)).subarray(0, 6)],
  ["an envelope declaring more than the server reads", `${PATH}/CountThings`, grpc, Buffer.from([0, 0x7f, 0xff, 0xff, 0xff])],
  ["garbage message", `${PATH}/CountThings`, grpc, envelope(Buffer.from([0xff, 0xff, 0xff]))],
  ["domain error with details and headers", `${PATH}/Fail`, grpc, fail("failed_precondition", "no")],
  ["ConnectError thrown by the handler", `${PATH}/Fail`, grpc, fail("connect", "plain")],
  ["unexpected error", `${PATH}/Fail`, grpc, fail("crash")],
  ["missing credential", `${PATH}/GetSecretThing`, grpc, envelope(toBinary(GetSecretThingRequestSchema, create(GetSecretThingRequestSchema, { name: "x" })))],
  ["gzip request", `${PATH}/CountThings`, { ...grpc, "grpc-encoding": "gzip" }, envelope(gzipSync(count(4)), 1)],
  ["compressed without an encoding", `${PATH}/CountThings`, grpc, envelope(gzipSync(count(4)), 1)],
  ["unsupported request encoding", `${PATH}/CountThings`, { ...grpc, "grpc-encoding": "zstd" }, envelope(count(4))],
  ["gzip response", `${PATH}/PolishThing`, { ...grpc, "grpc-accept-encoding": "gzip" }, envelope(toBinary(PolishThingRequestSchema, create(PolishThingRequestSchema, { title: "x".repeat(3000) })))],
  ["small response stays plain", `${PATH}/CountThings`, { ...grpc, "grpc-accept-encoding": "gzip" }, envelope(count(1))],
  ["bad timeout header", `${PATH}/CountThings`, { ...grpc, "grpc-timeout": "soon" }, envelope(count(1))],
  ["timeout header", `${PATH}/CountThings`, { ...grpc, "grpc-timeout": "5S" }, envelope(count(1))],
];

describe("gRPC unary fast path", () => {
  answersLikeStock(cases, async (port, [, path, headers, body]) => comparable(await send(port, path, headers, body)));
});
