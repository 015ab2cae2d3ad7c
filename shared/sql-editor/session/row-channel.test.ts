// The row channel between a read session and an export's encoder: the
// session may run one batch ahead of the consumer and no more; `limit` rows
// pass and the row beyond stops the read; a consumer that stops stops the
// read; a failure comes after the rows sent before it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Row } from "../cells.ts";
import { RowChannel } from "./row-channel.ts";

const batch = (from: number, count: number): Row[] => Array.from({ length: count }, (_, i) => [String(from + i)]);
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("row channel", () => {
  it("lets the session read one batch ahead, and holds it there until the consumer takes it", async () => {
    const channel = new RowChannel(undefined);
    const batches = channel.batches();
    const first = channel.rows(batch(1, 2));
    assert.deepEqual((await batches.next()).value, batch(1, 2));
    assert.equal(await first, true, "taken: the session reads on");
    let secondAnswered = false;
    const second = Promise.resolve(channel.rows(batch(3, 2))).then((more) => ((secondAnswered = true), more));
    await tick();
    assert.equal(secondAnswered, false, "the second batch waits while the consumer works on the first");
    assert.deepEqual((await batches.next()).value, batch(3, 2));
    assert.equal(await second, true);
    channel.end();
    assert.equal((await batches.next()).done, true);
  });

  it("passes `limit` rows and stops the read at the row beyond", async () => {
    const channel = new RowChannel(3);
    const batches = channel.batches();
    const answer = channel.rows(batch(1, 4));
    assert.deepEqual((await batches.next()).value, batch(1, 3));
    assert.equal(await answer, false);
    assert.equal(channel.rows(batch(5, 1)), false);
  });

  it("stops the read when the consumer stops, and answers a waiting batch at once", async () => {
    const channel = new RowChannel(undefined);
    const waiting = channel.rows(batch(1, 1));
    channel.stop();
    assert.equal(await waiting, false);
    assert.equal(channel.rows(batch(2, 1)), false);
  });

  it("hands over the rows sent before a failure, then throws it; a failure before the columns rejects them", async () => {
    const channel = new RowChannel(undefined);
    channel.columns([{ name: "n", typeName: "INT8", kind: "int64" }]);
    const batches = channel.batches();
    void channel.rows(batch(1, 1));
    channel.end(new Error("connection lost"));
    assert.deepEqual((await batches.next()).value, batch(1, 1));
    await assert.rejects(batches.next(), /connection lost/);

    const early = new RowChannel(undefined);
    early.end(new Error("relation does not exist"));
    await assert.rejects(early.described, /relation does not exist/);
  });
});
