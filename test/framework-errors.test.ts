// What Fastify, Node's HTTP parser and connect answer by themselves comes in
// the contract's error shape (§1.1) too: bad percent-encoding, path segments
// over the routed length, malformed HTTP, headers too large, connect's 405
// and 415, and requests arriving while the server closes.
import assert from "node:assert/strict";
import { connect as netConnect } from "node:net";
import { after, before, describe, it } from "node:test";
import Fastify from "fastify";
import { frameworkErrorOptions, refuseWhileClosing } from "../api/transport/framework-errors.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";

interface Answer {
  status: number;
  headers: string;
  body: Record<string, unknown>;
}

/** Sends raw bytes on a new connection and reads every answer until the server closes it. */
function rawExchange(port: number, bytes: string): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, "127.0.0.1", () => socket.write(bytes));
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve(parseAnswers(text)));
    socket.setTimeout(5_000, () => socket.destroy());
  });
}

function parseAnswers(text: string): Answer[] {
  const answers: Answer[] = [];
  for (let rest = text; rest.startsWith("HTTP/1.1 "); ) {
    const end = rest.indexOf("\r\n\r\n");
    const headers = rest.slice(0, end);
    const length = Number(/content-length: (\d+)/i.exec(headers)?.[1] ?? 0);
    const body = rest.slice(end + 4, end + 4 + length);
    answers.push({ status: Number(headers.slice(9, 12)), headers, body: JSON.parse(body) as Record<string, unknown> });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}

describe("framework errors in the contract's shape", () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const get = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${app.baseUrl}${path}`, init);
    return { status: res.status, allow: res.headers.get("allow"), body: (await res.json()) as Record<string, unknown> };
  };

  it("refuses a URL that is not valid percent-encoding with invalid_argument", async () => {
    for (const path of ["/v1/projects/%ff", "/svc.v1.ProjectService/GetProject%zz", "/%e0%80"]) {
      const answer = await get(path);
      assert.equal(answer.status, 400, path);
      assert.deepEqual(Object.keys(answer.body).sort(), ["code", "message"], path);
      assert.equal(answer.body.code, "invalid_argument", path);
      assert.match(String(answer.body.message), /is not valid percent-encoding$/, path);
    }
  });

  it("routes path segments up to 8 KiB, so that the input check names the field, and refuses longer ones", async () => {
    const named = await get(`/v1/auth/idps/${"a".repeat(2000)}:start`);
    assert.equal(named.body.code, "invalid_argument");
    assert.equal(named.body.message, "idp_id: too long: 2000 bytes, at most 1024 accepted");
    const refused = await get(`/v1/auth/idps/${"a".repeat(9000)}:start`);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { code: "invalid_argument", message: "a segment of the URL path is longer than 8192 characters" });
  });

  it("answers malformed HTTP and oversized headers in the shape, and closes the connection", async () => {
    const malformed = await rawExchange(app.port, "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n");
    assert.equal(malformed[0]?.status, 400);
    assert.deepEqual(malformed[0]?.body, { code: "invalid_argument", message: "the request is not valid HTTP" });
    const oversized = await rawExchange(app.port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    assert.equal(oversized[0]?.status, 431);
    assert.equal(oversized[0]?.body.code, "resource_exhausted");
    assert.match(oversized[0]!.headers, /connection: close/i);
  });

  it("gives connect's 405 and 415 answers the error body", async () => {
    const wrongVerb = await get("/svc.v1.AuthService/Login?connect=v1&encoding=json&message=%7B%7D");
    assert.equal(wrongVerb.status, 405);
    assert.equal(wrongVerb.allow, "POST");
    assert.deepEqual(wrongVerb.body, { code: "unimplemented", message: "GET is not allowed on /svc.v1.AuthService/Login; use POST" });
    const noEncoding = await get("/svc.v1.UserService/GetCurrentUser");
    assert.equal(noEncoding.status, 415);
    assert.equal(noEncoding.body.code, "invalid_argument");
    const unaryType = await get("/svc.v1.AuditLogService/ExportAuditLogs", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(unaryType.status, 415);
    assert.match(String(unaryType.body.message), /^unsupported Content-Type "application\/json"; send application\/connect\+json/);
  });

  it("answers a request that arrives while the server closes with unavailable", async () => {
    const server = Fastify({ ...frameworkErrorOptions });
    refuseWhileClosing(server);
    server.get("/quick", async () => ({ done: true }));
    let during: Answer | undefined;
    // The close hooks run while the server still accepts connections: a request then is refused.
    server.addHook("preClose", async () => {
      during = (await rawExchange(port, "GET /quick HTTP/1.1\r\nHost: x\r\n\r\n"))[0];
    });
    await server.listen({ port: 0, host: "127.0.0.1" });
    const port = (server.server.address() as { port: number }).port;
    assert.deepEqual((await rawExchange(port, "GET /quick HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))[0]?.body, { done: true });
    await server.close();
    assert.equal(during?.status, 503);
    assert.match(during!.headers, /connection: close/i);
    assert.deepEqual(during?.body, { code: "unavailable", message: "the server is shutting down; retry the request" });
  });
});
