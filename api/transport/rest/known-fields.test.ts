// REST body decoding (contract §1.3): fields a message does not know are
// ignored in nested messages, lists and maps; well-known types keep their own
// JSON (a Struct's keys are data, not fields); enum values stay strict.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toJson } from "@bufbuild/protobuf";
import { UpdateSettingRequestSchema, type UpdateSettingRequest } from "../../../shared/gen/svc/v1/setting_service_pb.js";
import { DomainError } from "../../../shared/platform/index.ts";
import { buildRequestMessage } from "./request-message.ts";

const decode = (body: unknown) =>
  buildRequestMessage(UpdateSettingRequestSchema, { bodyField: "setting", body, query: {}, pathValues: new Map([["setting.name", "settings/ENVIRONMENT"]]) }) as UpdateSettingRequest;

describe("REST body decoding", () => {
  it("drops unknown keys inside map values and list items, and keeps a Struct's keys as data", () => {
    const message = decode({
      value: {
        dataClassification: {
          configs: [{ id: "c1", classifications: { "1": { id: "1", title: "Public", colour: "green" } }, owner: "x" }],
        },
      },
      futureTopLevel: 1,
    });
    assert.deepEqual(toJson(UpdateSettingRequestSchema, message), {
      setting: { name: "settings/ENVIRONMENT", value: { dataClassification: { configs: [{ id: "c1", classifications: { "1": { id: "1", title: "Public" } } }] } } },
    });
    const withStruct = decode({
      value: { environment: { environments: [{ id: "prod", sql_review: { rules: [{ type: "naming.table", payload: { anyKey: { nested: true } }, note: "x" }] } }] } },
    });
    assert.deepEqual(toJson(UpdateSettingRequestSchema, withStruct), {
      setting: {
        name: "settings/ENVIRONMENT",
        value: { environment: { environments: [{ id: "prod", sqlReview: { rules: [{ type: "naming.table", payload: { anyKey: { nested: true } } }] } }] } },
      },
    });
  });

  it("still refuses an unknown enum value with invalid_argument", () => {
    assert.throws(
      () => decode({ value: { environment: { environments: [{ id: "prod", rolloutPolicy: "SOMETIMES" }] } } }),
      (error: unknown) => error instanceof DomainError && error.code === "invalid_argument" && /SOMETIMES/.test(error.message),
    );
  });
});
