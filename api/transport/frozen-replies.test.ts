import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ActuatorInfoSchema } from "../../shared/gen/svc/v1/actuator_service_pb.js";
import { encodedOnce, freezeMessage } from "./frozen-replies.ts";

describe("frozen replies", () => {
  it("encodes a frozen message once per form, and a message that may change every time", () => {
    const form = {};
    let encoded = 0;
    const encode = () => `json ${++encoded}`;
    const changing = create(ActuatorInfoSchema, { version: "1" });
    assert.equal(encodedOnce(changing, form, encode), "json 1");
    assert.equal(encodedOnce(changing, form, encode), "json 2");
    const frozen = freezeMessage(create(ActuatorInfoSchema, { version: "1" }));
    assert.equal(encodedOnce(frozen, form, encode), "json 3");
    assert.equal(encodedOnce(frozen, form, encode), "json 3");
    assert.equal(encodedOnce(frozen, {}, encode), "json 4", "another form is encoded on its own");
  });

  it("freezes the message and the messages inside it", () => {
    const info = freezeMessage(create(ActuatorInfoSchema, { version: "1", startTime: timestampFromDate(new Date(0)) }));
    assert.ok(Object.isFrozen(info) && Object.isFrozen(info.startTime));
    assert.throws(() => ((info as { version: string }).version = "2"), TypeError);
  });
});
