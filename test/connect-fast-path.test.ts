// The in-process unary Connect path must answer byte for byte like stock
// connect-fastify: it uses connect helpers that do not follow semver, so an
// upgrade that changes the wire behaviour fails here (guides: stack-proto §7b).
import { request } from "node:http";
import { describe } from "node:test";
import { gzipSync } from "node:zlib";
import { answersLikeStock } from "./helpers/fast-path-twins.ts";

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(port: number, path: string, headers: Record<string, string>, body: Buffer | string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const IGNORED_HEADERS = new Set(["date", "connection", "keep-alive"]);
const comparable = (res: RawResponse) => ({
  status: res.status,
  headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => !IGNORED_HEADERS.has(k)).sort()),
  body: res.body.toString("base64"),
});

const json = { "content-type": "application/json", "x-correlation-id": "same-id" };
const proto = { "content-type": "application/proto", "x-correlation-id": "same-id" };
const PATH = "/svctest.v1.TranscodingService";

const cases: [name: string, path: string, headers: Record<string, string>, body: Buffer | string][] = [
  ["JSON success", `${PATH}/PolishThing`, json, '{"name":"shelves/a/things/b","title":"t"}'],
  ["JSON with unknown fields", `${PATH}/CountThings`, json, '{"count":2,"unknown":1}'],
  ["JSON with charset", `${PATH}/CountThings`, { ...json, "content-type": "application/json; charset=utf-8" }, '{"count":2}'],
  ["binary success", `${PATH}/CountThings`, proto, Buffer.from([0x08, 0x05])],
  ["empty binary body", `${PATH}/CountThings`, proto, Buffer.alloc(0)],
  ["malformed JSON", `${PATH}/CountThings`, json, "{nope"],
  ["wrong JSON type", `${PATH}/CountThings`, json, '{"count":"many"}'],
  ["garbage binary", `${PATH}/CountThings`, proto, Buffer.from([0xff, 0xff, 0xff])],
  ["domain error with details and headers", `${PATH}/Fail`, json, '{"code":"failed_precondition","message":"no"}'],
  ["ConnectError thrown by the handler", `${PATH}/Fail`, json, '{"code":"connect","message":"plain"}'],
  ["unexpected error", `${PATH}/Fail`, json, '{"code":"crash"}'],
  ["missing credential", `${PATH}/GetSecretThing`, json, '{"name":"x"}'],
  ["gzip request", `${PATH}/CountThings`, { ...json, "content-encoding": "gzip" }, gzipSync('{"count":4}')],
  ["unsupported request encoding", `${PATH}/CountThings`, { ...json, "content-encoding": "zstd" }, '{"count":4}'],
  ["gzip response", `${PATH}/PolishThing`, { ...json, "accept-encoding": "gzip" }, JSON.stringify({ title: "x".repeat(3000) })],
  ["small response stays plain", `${PATH}/CountThings`, { ...json, "accept-encoding": "gzip" }, '{"count":1}'],
  ["bad timeout header", `${PATH}/CountThings`, { ...json, "connect-timeout-ms": "soon" }, '{"count":1}'],
  ["timeout header", `${PATH}/CountThings`, { ...json, "connect-timeout-ms": "5000" }, '{"count":1}'],
  ["eleven-digit timeout", `${PATH}/CountThings`, { ...json, "connect-timeout-ms": "12345678901" }, '{"count":1}'],
];

describe("Connect unary fast path", () => {
  answersLikeStock(cases, async (port, [, path, headers, body]) => comparable(await send(port, path, headers, body)));
});
