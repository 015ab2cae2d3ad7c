import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { createMetrics, exposition } from "./metrics.ts";

/** Times this process's main thread has gone to sleep and been woken (Linux). */
function mainThreadWakeups(): number {
  const status = readFileSync(`/proc/self/task/${process.pid}/status`, "utf8");
  return Number(/^voluntary_ctxt_switches:\s+(\d+)$/m.exec(status)?.[1]);
}

test("the runtime metrics wake an idle process about ten times a second, not a hundred", async () => {
  const metrics = createMetrics({ threadPoolSize: 4 });
  await sleep(200); // the event-loop monitor has started
  const before = mainThreadWakeups();
  await sleep(2_000);
  const wakeups = mainThreadWakeups() - before;
  // 20 samples at 100 ms and the sleep's own wakeup (21 measured); at 10 ms it
  // was 197. The floor says the monitor runs at all: a loaded machine delays
  // its ticks, and each next one is timed from the late one.
  assert.ok(wakeups >= 10 && wakeups < 60, `${wakeups} wakeups in 2 s`);
  assert.match(await metrics.registry.metrics(), /^nodejs_eventloop_lag_p99_seconds \d/m);
});

test("two scrapes in a row are valid Prometheus text: the lag gauges of an empty window are NaN", async () => {
  const metrics = createMetrics({ threadPoolSize: 4 });
  await exposition(metrics);
  const text = await exposition(metrics); // no lag sample since the first: the monitor's window is empty
  assert.match(text, /^nodejs_eventloop_lag_mean_seconds NaN$/m);
  for (const line of text.split("\n").filter((l) => l && !l.startsWith("#"))) {
    assert.match(line, /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/);
  }
});
