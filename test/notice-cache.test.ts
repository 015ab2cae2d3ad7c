// The notice cache's own rules (shared/platform/notice-cache.ts), on a real
// LISTEN connection: misses of one key at once share a read, a read that a
// notice overtakes is answered but not kept, entries beyond the bound evict
// the one read longest ago, values not worth keeping are read each time, and nothing is
// kept while the channel is down.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createNoticeCache, type CachePart, type NoticeCache } from "../shared/platform/notice-cache.ts";
import { adminQuery, adminUrl } from "./helpers/db.ts";
import { quietLogger } from "./helpers/logger.ts";

const CHANNEL = "notice_cache_test";

/** A load that counts its calls and answers `value` once `release` is called (at once by default). */
function counted<V>(value: V, held = false) {
  let release = () => {};
  const gate = held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const load = Object.assign(
    async () => {
      load.calls++;
      await gate;
      return value;
    },
    { calls: 0 },
  );
  return { load, release: () => release() };
}

describe("notice cache", () => {
  let cache: NoticeCache;
  let part: CachePart<string>;
  let bounded: CachePart<string>;
  let notices: string[] = [];

  before(async () => {
    cache = createNoticeCache({
      url: adminUrl(),
      channel: CHANNEL,
      applicationName: "svc notice-cache test",
      logger: quietLogger(),
      maxAgeMs: 60_000,
      onNotice: (payload) => {
        notices.push(payload);
        part.drop((key) => key === payload);
      },
      lostMessage: "test channel lost",
    });
    part = cache.part<string>({ keep: (value) => value !== "" });
    bounded = cache.part<string>({ maxEntries: 2 });
    // Listening once a second read of a probe is answered from memory.
    for (const started = performance.now(); ; ) {
      const probe = counted("p");
      await part.get("probe", probe.load);
      await part.get("probe", probe.load);
      if (probe.load.calls === 1) break;
      assert.ok(performance.now() - started < 5_000, "the test channel never listened");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  after(() => cache.close());

  const notify = async (payload: string) => {
    notices = [];
    await adminQuery(`select pg_notify('${CHANNEL}', '${payload}')`);
    for (const started = performance.now(); !notices.includes(payload); ) {
      assert.ok(performance.now() - started < 5_000, `notice ${payload} never arrived`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it("shares one read among the misses of a key at once, then answers from memory until a notice names it", async () => {
    const { load, release } = counted("v1", true);
    const both = Promise.all([part.get("k", load), part.get("k", load)]);
    release();
    assert.deepEqual(await both, ["v1", "v1"]);
    assert.equal(await part.get("k", load), "v1");
    assert.equal(load.calls, 1);
    await notify("k");
    const again = counted("v2");
    assert.equal(await part.get("k", again.load), "v2");
    assert.equal(again.load.calls, 1);
  });

  it("answers a read that a notice overtook, but does not keep it", async () => {
    const { load, release } = counted("stale", true);
    const pending = part.get("raced", load);
    await notify("raced");
    release();
    assert.equal(await pending, "stale");
    const fresh = counted("fresh");
    assert.equal(await part.get("raced", fresh.load), "fresh", "the overtaken read was kept");
  });

  it("reads again each time a value not worth keeping", async () => {
    const { load } = counted("");
    await part.get("empty", load);
    await part.get("empty", load);
    assert.equal(load.calls, 2);
  });

  it("evicts the entry read longest ago beyond its bound", async () => {
    const a = counted("a");
    const b = counted("b");
    await bounded.get("a", a.load);
    await bounded.get("b", b.load);
    await bounded.get("a", a.load); // from memory: its read is still the oldest
    await bounded.get("c", counted("c").load); // evicts a
    await bounded.get("b", b.load);
    assert.equal(b.load.calls, 1, "b was evicted");
    await bounded.get("a", a.load);
    assert.equal(a.load.calls, 2, "a was kept beyond the bound");
  });

  it("keeps nothing once its channel is closed", async () => {
    const closing = createNoticeCache({
      url: adminUrl(),
      channel: CHANNEL,
      applicationName: "svc notice-cache test",
      logger: quietLogger(),
      maxAgeMs: 60_000,
      onNotice: () => {},
      lostMessage: "test channel lost",
    });
    const closed = closing.part<string>();
    await closing.close();
    const { load } = counted("x");
    await closed.get("x", load);
    await closed.get("x", load);
    assert.equal(load.calls, 2);
  });
});
