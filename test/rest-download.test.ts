// REST downloads (docs/decisions/0009-streamed-downloads.md): a
// server-streaming method with a google.api.http binding answers the file
// itself — Content-Type and Content-Disposition from its first message, the
// body streamed — through the interceptor chain; an error before the first
// message is the JSON error reply, an error after it aborts the connection.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import SwaggerParser from "@apidevtools/swagger-parser";
import { ScalarType, type DescMethodServerStreaming } from "@bufbuild/protobuf";
import { restBindings } from "../api/transport/rest/bindings.ts";
import { DownloadThingsResponseSchema, ThingSchema, TranscodingService } from "./gen/svctest/v1/transcoding_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";

describe("REST downloads", () => {
  let app: TestApp;
  const download = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(`${app.baseUrl}/v1/things:download`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it("answers the concatenated content with the first message's media type and file name", async () => {
    const res = await download({ chunks: ["a,b\r\n", "", "1,2\r\n", "3,4\r\n"], contentType: "text/csv", filename: "my things; 1.csv" }, { "x-correlation-id": "dl-1" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/csv");
    assert.equal(res.headers.get("content-disposition"), `attachment; filename="my_things__1.csv"`);
    assert.equal(res.headers.get("x-correlation-id"), "dl-1");
    assert.equal(await res.text(), "a,b\r\n1,2\r\n3,4\r\n");
  });

  it("answers an empty octet stream when the method names no type and sends nothing", async () => {
    const res = await download({ chunks: [] });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/octet-stream");
    assert.equal(res.headers.get("content-disposition"), null);
    assert.equal(await res.text(), "");
  });

  it("answers the JSON error reply when the call fails before its first message", async () => {
    const res = await download({ chunks: ["x"], failCode: "failed_precondition", failAfter: 0 });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { code: "failed_precondition", message: "asked to fail after 0 chunks" });
    const malformed = await fetch(`${app.baseUrl}/v1/things:download`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    assert.equal(malformed.status, 400);
    assert.equal(((await malformed.json()) as { code: string }).code, "invalid_argument");
  });

  it("aborts the connection when the call fails after its first message, so no cut-off file looks whole", async () => {
    for (const failAfter of [1, 3]) {
      const res = await download({ chunks: ["one\n", "two\n", "three\n"], contentType: "text/plain", failCode: "internal", failAfter });
      assert.equal(res.status, 200, "the headers went out with the first message");
      await assert.rejects(res.text(), "reading the body fails instead of ending cleanly");
    }
  });

  it("is documented in /openapi.json as a binary body with its disposition", async () => {
    const doc = (await (await fetch(`${app.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    await SwaggerParser.validate(structuredClone(doc) as never);
    for (const path of ["/v1/things:download", "/v1/auditLogs:export"]) {
      assert.deepEqual(doc.paths[path]?.post?.responses["200"], {
        description: "The file, streamed; Content-Type names its media type (e.g. text/csv).",
        headers: { "content-disposition": { schema: { type: "string" }, description: 'attachment; filename="…"' } },
        content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
      }, path);
    }
  });

  it("refuses at start-up a download whose response message breaks the convention; a stream without content is NDJSON", () => {
    const response = DownloadThingsResponseSchema;
    const textContent = { ...response, fields: response.fields.map((f) => (f.name === "content" ? { ...f, scalar: ScalarType.STRING } : f)) };
    const broken = { ...TranscodingService.method.downloadThings, output: textContent } as DescMethodServerStreaming;
    const service = { ...TranscodingService, methods: [broken] } as typeof TranscodingService;
    assert.throws(() => restBindings([service]), /DownloadThings is a REST download: its response svctest\.v1\.DownloadThingsResponse needs "bytes content"/);
    assert.equal(restBindings([TranscodingService]).find((b) => b.method.name === "DownloadThings")?.kind, "download");
    const things = { ...TranscodingService.method.downloadThings, output: ThingSchema } as DescMethodServerStreaming;
    assert.equal(restBindings([{ ...TranscodingService, methods: [things] } as typeof TranscodingService])[0]?.kind, "ndjson");
  });
});
