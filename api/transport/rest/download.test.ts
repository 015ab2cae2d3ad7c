// A REST download's body closes the call's stream however it ends, so that
// the call finishes (and a streamed call's audit record is written) even when
// the body is destroyed before anything read it; a call failing after its
// first message fails the body only once the response has sent every byte
// before it (aborting at once would drop them).
import assert from "node:assert/strict";
import { once } from "node:events";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { StreamResponse } from "@connectrpc/connect";
import { startDownload } from "./download.ts";

/** A call's response stream of `chunks`, telling when it was closed. */
function streamedCall(chunks: string[]) {
  const state = { closed: false, sent: 0 };
  async function* messages() {
    try {
      for (const chunk of chunks) {
        yield { content: Buffer.from(chunk), contentType: "text/plain", filename: "" };
        state.sent++;
      }
    } finally {
      state.closed = true;
    }
  }
  const res = { header: new Headers(), trailer: new Headers(), stream: true, message: messages() } as unknown as StreamResponse;
  return { res, state };
}

describe("REST download body", () => {
  it("closes the call's stream when the body is destroyed before its first read", async () => {
    const { res, state } = streamedCall(["one\n", "two\n", "three\n"]);
    const download = await startDownload(res);
    assert.equal(state.closed, false);
    download.body.destroy();
    await once(download.body, "close");
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(state.closed, true, "the upstream's finally ran");
    assert.equal(state.sent, 0, "nothing more was produced");
  });

  it("closes it after a partial read, and after a full one", async () => {
    const partial = streamedCall(["one\n", "two\n", "three\n"]);
    const body = (await startDownload(partial.res)).body;
    await once(body, "readable");
    body.destroy();
    await once(body, "close");
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(partial.state.closed, true);

    const whole = streamedCall(["a", "b"]);
    const text: Buffer[] = [];
    for await (const chunk of (await startDownload(whole.res)).body) text.push(chunk as Buffer);
    assert.equal(Buffer.concat(text).toString(), "ab");
    assert.deepEqual(whole.state, { closed: true, sent: 2 });
  });

  it("fails only once the response has sent every byte before the failure", async () => {
    async function* messages() {
      yield { content: Buffer.from("a whole file"), contentType: "text/plain", filename: "" };
      throw new Error("resource exhausted after a whole file");
    }
    const res = { header: new Headers(), trailer: new Headers(), stream: true, message: messages() } as unknown as StreamResponse;
    const sink = { writableLength: 12, destroyed: false }; // the response still holds the file's bytes
    const events: string[] = [];
    const reading = (async () => {
      for await (const chunk of (await startDownload(res, sink)).body) events.push(String(chunk));
    })().catch((error: Error) => events.push(error.message));
    await sleep(50);
    events.push("sent");
    sink.writableLength = 0;
    await reading;
    assert.deepEqual(events, ["a whole file", "sent", "resource exhausted after a whole file"]);
  });
});
