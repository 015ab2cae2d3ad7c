import assert from "node:assert/strict";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyReply } from "fastify";
import { writeRaw } from "./raw-reply.ts";

/** A server whose one answer is written by writeRaw once the client has gone; resolves with how writeRaw settled. */
async function answerAfterClientLeft(): Promise<string> {
  let settled!: Promise<string>;
  const server = createServer((req, res) => {
    const reply = { hijack: () => undefined, raw: res, getHeaders: () => ({}) } as unknown as FastifyReply;
    settled = new Promise((resolve) => {
      req.once("close", () => {
        const written = writeRaw(reply, 200, new Headers({ "content-type": "application/json" }), '{"late":true}');
        void written.then(() => resolve("settled"));
        void sleep(1000).then(() => resolve("pending after 1 s"));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const client = request({ host: "127.0.0.1", port: (server.address() as AddressInfo).port, method: "POST" });
  client.on("error", () => undefined);
  client.write("{}");
  await sleep(100);
  client.destroy();
  while (!settled) await sleep(10);
  const outcome = await settled;
  server.close();
  return outcome;
}

describe("writing an answer to the raw response", () => {
  it("settles when the client went away before the answer was written", async () => {
    assert.equal(await answerAfterClientLeft(), "settled");
  });
});
