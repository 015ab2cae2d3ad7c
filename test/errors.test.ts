// Errors have one shape in every form (contract §1): Connect codes, REST and
// Connect JSON bodies {code, message, details}, the status table, and no HTML,
// stack traces or 500s for bad input.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { TranscodingService } from "./gen/svctest/v1/transcoding_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";

const STATUS: [string, number][] = [
  ["invalid_argument", 400],
  ["failed_precondition", 400],
  ["out_of_range", 400],
  ["unauthenticated", 401],
  ["permission_denied", 403],
  ["not_found", 404],
  ["already_exists", 409],
  ["aborted", 409],
  ["resource_exhausted", 429],
  ["canceled", 499],
  ["internal", 500],
  ["unimplemented", 501],
  ["unavailable", 503],
  ["deadline_exceeded", 504],
];

describe("errors", () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ flags: ["--max-body-bytes", "1024"] });
  });
  after(() => app.close());

  const post = (path: string, body: string, contentType = "application/json") =>
    fetch(`${app.baseUrl}${path}`, { method: "POST", headers: { "content-type": contentType }, body });

  for (const [code, status] of STATUS) {
    it(`${code} → HTTP ${status} with the same body over REST and Connect`, async () => {
      const payload = JSON.stringify({ code, message: `it is ${code}` });
      const rest = await post("/v1/things:fail", payload);
      const connect = await post("/svctest.v1.TranscodingService/Fail", payload);
      for (const res of [rest, connect]) {
        assert.equal(res.status, status);
        assert.equal(res.headers.get("retry-after"), "7", "error headers reach the client");
        const body = (await res.json()) as { code: string; message: string; details: { type: string; debug: unknown }[] };
        assert.equal(body.code, code);
        assert.equal(body.message, `it is ${code}`);
        assert.equal(body.details[0]?.type, "google.protobuf.Struct");
        assert.deepEqual(body.details[0]?.debug, { asked: code });
      }
    });
  }

  it("hides an unexpected error behind internal with the correlation id", async () => {
    const res = await fetch(`${app.baseUrl}/v1/things:fail`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-correlation-id": "corr-42" },
      body: JSON.stringify({ code: "crash" }),
    });
    assert.equal(res.status, 500);
    const body = (await res.json()) as { code: string; message: string };
    assert.equal(body.code, "internal");
    assert.match(body.message, /corr-42/);
    assert.doesNotMatch(body.message, /secret/);
  });

  it("gives gRPC clients the code and message", async () => {
    const client = createClient(TranscodingService, createGrpcTransport({ baseUrl: app.baseUrl }));
    await assert.rejects(client.fail({ code: "failed_precondition", message: "not now" }), (error: ConnectError) => {
      assert.equal(error.code, Code.FailedPrecondition);
      assert.equal(error.rawMessage, "not now");
      return true;
    });
  });

  it("refuses malformed JSON with invalid_argument (REST and Connect)", async () => {
    for (const path of ["/v1/things:count", "/svctest.v1.TranscodingService/CountThings"]) {
      const res = await post(path, "{not json");
      assert.equal(res.status, 400, path);
      assert.equal(((await res.json()) as { code: string }).code, "invalid_argument");
    }
  });

  it("refuses a wrong Content-Type with 415 and the JSON shape (REST and Connect)", async () => {
    for (const path of ["/v1/things:count", "/svctest.v1.TranscodingService/CountThings"]) {
      for (const contentType of ["text/xml", "text/plain", "application/x-www-form-urlencoded"]) {
        const res = await post(path, "count=1", contentType);
        assert.equal(res.status, 415, `${path} ${contentType}`);
        assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
        assert.equal(((await res.json()) as { code: string }).code, "invalid_argument");
      }
    }
  });

  it("refuses an oversized body with 413 resource_exhausted (REST and Connect)", async () => {
    const big = JSON.stringify({ title: "x".repeat(4096) });
    for (const path of ["/v1/shelves/s/things/t:polish", "/svctest.v1.TranscodingService/PolishThing"]) {
      const res = await post(path, big);
      assert.equal(res.status, 413, path);
      assert.equal(((await res.json()) as { code: string }).code, "resource_exhausted");
    }
  });

  it("requires a credential where the RPC does not allow going without", async () => {
    const res = await fetch(`${app.baseUrl}/v1/shelves/s/secretThings/t`);
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("www-authenticate"), "Bearer");
    assert.equal(((await res.json()) as { code: string }).code, "unauthenticated");
    const withToken = await fetch(`${app.baseUrl}/v1/shelves/s/secretThings/t`, { headers: { authorization: "Bearer nope" } });
    assert.equal(withToken.status, 401);
  });

  it("rejects HTTP basic authentication as unsupported, in every form", async () => {
    const basic = { authorization: `Basic ${Buffer.from("admin:pw").toString("base64")}` };
    const rest = await fetch(`${app.baseUrl}/v1/actuator/info`, { headers: basic });
    assert.equal(rest.status, 401);
    assert.match(((await rest.json()) as { message: string }).message, /basic authentication is not supported/);
    const client = createClient(TranscodingService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    await assert.rejects(client.getThing({ name: "shelves/s/things/t" }, { headers: basic }), (e: ConnectError) => e.code === Code.Unauthenticated);
  });

  it("streams messages and ends a failing stream with its code", async () => {
    const client = createClient(TranscodingService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const names: string[] = [];
    for await (const thing of client.listThingsStream({ count: 3 })) names.push(thing.name);
    assert.deepEqual(names, ["things/0", "things/1", "things/2"]);
    const grpc = createClient(TranscodingService, createGrpcTransport({ baseUrl: app.baseUrl }));
    await assert.rejects(
      (async () => {
        for await (const _ of grpc.listThingsStream({ count: -1 })) void _;
      })(),
      (e: ConnectError) => e.code === Code.InvalidArgument && /negative/.test(e.rawMessage),
    );
  });
});
