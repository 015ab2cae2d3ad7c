// /healthz, /readyz, /metrics and /debug/pprof (contract §15.2–§15.4).
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { addJob } from "../shared/platform/jobs/jobs.store.ts";
import { startEmbeddedPostgres } from "../shared/platform/embedded-postgres.ts";
import { migrate } from "../shared/platform/migrate.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { quietLogger } from "./helpers/logger.ts";

const METRIC_LINE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*",?)*\})? -?([0-9.e+-]+|NaN|\+Inf|-Inf)$/;

describe("ops routes", () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it("/healthz answers 200 {status: ok}", async () => {
    const res = await fetch(`${app.baseUrl}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: "ok" });
  });

  it("/readyz answers 200 {status: ready} while the store answers", async () => {
    const res = await fetch(`${app.baseUrl}/readyz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: "ready" });
  });

  it("/metrics is valid Prometheus text with the HTTP, business and runtime metrics", async () => {
    await addJob(app.db, "maintenance.cleanupJobs", { permafailedOlderThanDays: 30 }); // no worker runs here
    await fetch(`${app.baseUrl}/v1/shelves/s1/things/t1`);
    await fetch(`${app.baseUrl}/svctest.v1.TranscodingService/CountThings`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const res = await fetch(`${app.baseUrl}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const samples = text.split("\n").filter((line) => line && !line.startsWith("#"));
    for (const line of samples) assert.match(line, METRIC_LINE);
    const names = new Set(text.split("\n").filter((l) => l.startsWith("# TYPE ")).map((l) => l.split(" ")[2]));
    for (const name of [
      "http_request_duration_seconds",
      "http_requests_total",
      "svc_auth_login_total",
      "svc_task_run_total",
      "svc_issue_approval_duration_seconds",
      "svc_plan_check_run_duration_seconds",
      "svc_jobs_pending",
      "svc_jobs_running",
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "process_open_fds",
      "go_goroutines",
      "go_memstats_alloc_bytes",
      "go_memstats_heap_alloc_bytes",
      "go_memstats_sys_bytes",
      "go_gc_duration_seconds",
      "go_threads",
    ]) {
      assert.ok(names.has(name), `missing ${name}`);
    }
    const route = "/v1/shelves/:p0(^[^/:]+)/things/:p1(^[^/:]+)";
    const counted = samples.find((l) => l.startsWith("http_requests_total{") && l.includes(`route="${route}"`));
    assert.ok(counted, "requests are counted by route template, not raw path");
    assert.match(counted, /protocol="rest"/);
    assert.match(counted, /status_code="200"/);
    const rpc = samples.find((l) => l.startsWith("http_requests_total{") && l.includes('route="/svctest.v1.TranscodingService/CountThings"'));
    assert.ok(rpc, "RPC routes are counted too");
    assert.match(rpc, /protocol="connect"/);
    assert.match(text, /^svc_jobs_pending 1$/m, "job gauges are read from the queue");
    assert.match(text, /^svc_jobs_running 0$/m);
  });

  it("/debug/pprof does not exist without --debug", async () => {
    for (const path of ["/debug/pprof/", "/debug/pprof/heap", "/debug/pprof/profile?seconds=1"]) {
      const res = await fetch(`${app.baseUrl}${path}`);
      assert.equal(res.status, 404, path);
      assert.equal(((await res.json()) as { code: string }).code, "not_found");
    }
  });
});

describe("ops routes with --debug", () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ flags: ["--debug"] });
  });
  after(() => app.close());

  it("serves CPU and heap profiles in gzipped pprof format", async () => {
    for (const path of ["/debug/pprof/profile?seconds=1", "/debug/pprof/heap"]) {
      const res = await fetch(`${app.baseUrl}${path}`);
      assert.equal(res.status, 200, path);
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.deepEqual([bytes[0], bytes[1]], [0x1f, 0x8b], `${path} is gzip`);
    }
  });

  it("refuses a bad profile duration with invalid_argument", async () => {
    const res = await fetch(`${app.baseUrl}/debug/pprof/profile?seconds=999`);
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { code: string }).code, "invalid_argument");
  });
});

describe("/readyz when the metadata store goes away", () => {
  let dataDir: string;
  let stopStore: () => Promise<void>;
  let app: TestApp;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "svc-readyz-"));
    const store = await startEmbeddedPostgres(dataDir, quietLogger());
    stopStore = store.stop;
    await migrate(store.url, quietLogger());
    app = await startTestApp({ database: { url: store.url, name: "svc", drop: async () => {} } });
  });
  after(async () => {
    await app.close().catch(() => undefined);
    await stopStore();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("answers 503 with a reason, and RPCs answer unavailable", async () => {
    assert.equal((await fetch(`${app.baseUrl}/readyz`)).status, 200);
    await stopStore();
    const res = await fetch(`${app.baseUrl}/readyz`);
    assert.equal(res.status, 503);
    const body = (await res.json()) as { status: string; reason: string };
    assert.equal(body.status, "unavailable");
    assert.match(body.reason, /metadata store/);
    const rpc = await fetch(`${app.baseUrl}/v1/actuator/info`);
    assert.equal(rpc.status, 503);
    assert.equal(((await rpc.json()) as { code: string }).code, "unavailable");
    assert.equal((await fetch(`${app.baseUrl}/healthz`)).status, 200, "the process still serves");
    const started = performance.now();
    const metrics = await fetch(`${app.baseUrl}/metrics`);
    assert.equal(metrics.status, 200, "a scrape does not fail with the store");
    assert.match(await metrics.text(), /^svc_jobs_pending \d+$/m, "the job gauges are still exported");
    assert.ok(performance.now() - started < 3_000, "the job counts give up within about a second");
  });
});
