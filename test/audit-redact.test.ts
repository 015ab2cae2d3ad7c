// The request and response of an audit record as JSON (contract §8.1): proto
// JSON, update masks without a JSON form as their raw paths, and a message
// with no JSON form at all still gives a record instead of failing the call.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { redactedJson } from "../api/transport/redact.ts";
import { BulkSampleSchema, GetThingRequestSchema, UpdateThingRequestSchema } from "./gen/svctest/v1/transcoding_service_pb.js";

const OUT_OF_RANGE = { seconds: 400_000_000_000n, nanos: 0 }; // after year 9999: no RFC 3339 form

describe("audit record JSON", () => {
  it("writes proto JSON", () => {
    const message = create(GetThingRequestSchema, { name: "shelves/a/things/b", seenTime: { seconds: 0n, nanos: 0 } });
    assert.equal(redactedJson(GetThingRequestSchema, message), '{"name":"shelves/a/things/b","seenTime":"1970-01-01T00:00:00Z"}');
  });

  it("writes an update mask without a JSON form as its raw paths", () => {
    const message = create(UpdateThingRequestSchema, { thing: { title: "t" }, updateMask: create(FieldMaskSchema, { paths: ["require_2fa", "title"] }) });
    assert.deepEqual(JSON.parse(redactedJson(UpdateThingRequestSchema, message)), { thing: { title: "t" }, updateMask: "require_2fa,title" });
  });

  it("writes a message with no JSON form as the reason, so that its record is still written", () => {
    const plain = create(GetThingRequestSchema, { name: "shelves/a/things/b", seenTime: OUT_OF_RANGE });
    const masked = create(UpdateThingRequestSchema, { thing: { seenTime: OUT_OF_RANGE }, updateMask: create(FieldMaskSchema, { paths: ["require_2fa"] }) });
    for (const [desc, message] of [[GetThingRequestSchema, plain], [UpdateThingRequestSchema, masked]] as const) {
      const json = JSON.parse(redactedJson(desc, message as never)) as Record<string, string>;
      assert.deepEqual(Object.keys(json), ["unreadable"]);
      assert.match(json["unreadable"]!, /^no JSON form: .*Timestamp/);
    }
  });

  it("leaves bulk data out inside a oneof: a not_audited member whole, a member holding bulk without it", () => {
    const rows = { label: "r", values: ["a", "b"] };
    const asRows = create(BulkSampleSchema, { body: { case: "rows", value: rows } });
    const asSummary = create(BulkSampleSchema, { body: { case: "summary", value: rows } });
    const asNote = create(BulkSampleSchema, { body: { case: "note", value: "n" } });
    assert.deepEqual(JSON.parse(redactedJson(BulkSampleSchema, asRows)), {});
    assert.deepEqual(JSON.parse(redactedJson(BulkSampleSchema, asSummary)), { summary: { label: "r" } });
    assert.deepEqual(JSON.parse(redactedJson(BulkSampleSchema, asNote)), { note: "n" });
    assert.equal(asSummary.body.case, "summary");
    assert.deepEqual(asSummary.body.value.values, ["a", "b"], "the call's own message is left as it was");
  });
});
