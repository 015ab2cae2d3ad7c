// A REST NDJSON body (contract §18.11), from the call's response stream: a
// line {"result": …} per message (the binding's response_body field), an
// empty line per heartbeat (a message without it), a last line {"error": …}
// for a failure after the first message; a failure before it rejects, so the
// route answers the JSON error reply; a body destroyed early closes the call.
import assert from "node:assert/strict";
import { once } from "node:events";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type StreamResponse } from "@connectrpc/connect";
import { Rollout_State, RolloutService, WatchRolloutResponseSchema } from "../../../shared/gen/svc/v1/rollout_service_pb.js";
import { restBindings } from "./bindings.ts";
import { startNdjson } from "./ndjson-stream.ts";

const binding = restBindings([RolloutService]).find((b) => b.method.name === "WatchRollout")!;

/** A call's response stream of `states` (undefined: a heartbeat), then `failure` if given. */
function streamedCall(states: (string | undefined)[], failure?: Error) {
  const state = { closed: false };
  async function* messages() {
    try {
      for (const name of states) yield create(WatchRolloutResponseSchema, name ? { rollout: { name, state: Rollout_State.RUNNING } } : {});
      if (failure) throw failure;
    } finally {
      state.closed = true;
    }
  }
  const res = { header: new Headers(), trailer: new Headers(), stream: true, message: messages() } as unknown as StreamResponse;
  return { res, state };
}

async function text(body: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString();
}

describe("REST NDJSON body", () => {
  it("is a result line per message, an empty line per heartbeat, and an error line for a later failure", async () => {
    const { res, state } = streamedCall(["projects/p/rollouts/1", undefined, "projects/p/rollouts/1"], new ConnectError("the store went away", Code.Unavailable));
    const body = (await startNdjson(binding, res, "c-1")).body;
    const result = '{"result":{"name":"projects/p/rollouts/1","state":"RUNNING"}}';
    assert.equal(await text(body), `${result}\n\n${result}\n{"error":{"code":"unavailable","message":"the store went away"}}\n`);
    assert.equal(state.closed, true);
  });

  it("hides an unexpected failure behind the correlation id", async () => {
    const { res } = streamedCall(["projects/p/rollouts/1"], new Error("secret detail"));
    const lines = (await text((await startNdjson(binding, res, "c-2")).body)).split("\n");
    assert.deepEqual(JSON.parse(lines[1]!), { error: { code: "internal", message: "internal error; quote correlation id c-2 to the operator" } });
  });

  it("rejects a failure before the first message, for the JSON error reply", async () => {
    const { res } = streamedCall([], new ConnectError("rollout missing", Code.NotFound));
    await assert.rejects(startNdjson(binding, res, "c-3"), /rollout missing/);
  });

  it("closes the call's stream when the body is destroyed before its first read", async () => {
    const { res, state } = streamedCall(["projects/p/rollouts/1", "projects/p/rollouts/1"]);
    const body = (await startNdjson(binding, res, "c-4")).body;
    body.destroy();
    await once(body, "close");
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(state.closed, true);
  });
});
