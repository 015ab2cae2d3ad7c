// The split topology as it runs in production: a real API process and a real
// worker process on one store. Both are scraped (contract §15.3: the job
// metrics come from the worker, which serves its own ops port), the worker's
// /readyz turns 503 while it drains (§15.2).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { createInstanceOk, createPgTarget, eventually, pgAdminSource } from "./helpers/instances.ts";
import { restClient } from "./helpers/rest.ts";
import { killAllServers, type ServerProcess, spawnServer } from "./helpers/server-process.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;

const TEST_TIMEOUT = { timeout: 90_000 };

after(() => killAllServers());

describe("split topology: an API process and a worker process", () => {
  let database: TestDatabase;
  let target: Awaited<ReturnType<typeof createPgTarget>>;
  let api: ServerProcess;
  let worker: ServerProcess;
  let rest: ReturnType<typeof restClient>;
  let token = "";
  let resource = "";
  const ok = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const reply = await rest<Json>(method, path, { token, body, headers });
    assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  /** Plans `statement` on the target and opens an issue of it; resolves once the issue has its rollout (its plan's checks done). */
  const change = async (title: string, statement: string, headers: Record<string, string> = {}) => {
    const plan = await ok("POST", "/v1/projects/split/plans", { title, specs: [{ changeDatabaseConfig: { targets: [resource], statement } }] }, headers);
    const issue = await ok("POST", "/v1/projects/split/issues", { plan: plan.name }, headers);
    let rollout = "";
    await eventually(async () => Boolean((rollout = String((await ok("GET", `/v1/${issue.name}`)).rollout ?? ""))), 30_000);
    return { plan: String(plan.name), issue: String(issue.name), rollout };
  };
  const rolloutState = async (rollout: string) => String((await ok("GET", `/v1/${rollout}`)).state);
  const firstTask = async (rollout: string) => (await ok("GET", `/v1/${rollout}`)).tasks[0] as Json;

  before(async () => {
    database = await createTestDatabase();
    target = await createPgTarget(["create table item (n int)"]);
    const env = { PG_URL: database.url };
    [api, worker] = await Promise.all([
      spawnServer({ entry: "api/main.ts", args: ["--debug", "--bootstrap-admin-password", ADMIN.password], env }),
      spawnServer({ entry: "worker/main.ts", env }),
    ]);
    rest = restClient(api.baseUrl);
    token = await signInFirstAdmin(rest);
    await ok("POST", "/v1/projects?projectId=split", { title: "Split" });
    await createInstanceOk(rest, token, "split-pg", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    resource = `instances/split-pg/databases/${target.name}`;
    await eventually(async () => (await rest<Json>("GET", `/v1/${resource}`, { token })).body.syncState === "OK");
    await ok("POST", "/v1/databases:transfer", { databases: [resource], targetProject: "projects/split" });
  });
  after(async () => {
    await killAllServers();
    await database?.drop();
    await target?.drop();
  });

  it("scrapes the task-run and plan-check metrics from the worker's ops port, the HTTP metrics from the API", TEST_TIMEOUT, async () => {
    assert.notEqual(worker.port, api.port);
    const { rollout } = await change("Add a row", "insert into item values (1);");
    await eventually(async () => (await rolloutState(rollout)) === "DONE", 30_000);

    const [workerMetrics, apiMetrics] = await Promise.all([scrape(worker), scrape(api)]);
    assert.equal(sample(workerMetrics, 'svc_task_run_total{state="done"}'), 1, "the worker counts the run it settled");
    assert.ok((sample(workerMetrics, 'svc_plan_check_run_duration_seconds_count{status="DONE"}') ?? 0) >= 1, "the worker times the plan's checks");
    assert.equal(sample(apiMetrics, 'svc_task_run_total{state="done"}'), undefined, "the API settles no run");
    for (const metrics of [workerMetrics, apiMetrics]) {
      assert.equal(typeof sample(metrics, "svc_jobs_pending"), "number", "each process reads the queue's gauges");
      assert.equal(typeof sample(metrics, "svc_jobs_running"), "number");
      assert.equal(typeof sample(metrics, "process_resident_memory_bytes"), "number");
    }
    assert.ok(apiMetrics.includes("http_requests_total{"), "the API counts its requests");
  });

  it("the worker's /readyz answers 200, then 503 while it drains a running task run, and it exits 0 once the run is done", TEST_TIMEOUT, async () => {
    assert.deepEqual(await getJson(worker, "/healthz"), { status: 200, body: { status: "ok" } });
    assert.deepEqual(await getJson(worker, "/readyz"), { status: 200, body: { status: "ready" } });
    const unknown = await getJson(worker, "/v1/actuator/info");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, "not_found");

    const { rollout } = await change("A slow change", "select pg_sleep(2);");
    await eventually(async () => (await firstTask(rollout)).state === "RUNNING", 30_000);
    worker.kill("SIGTERM");
    await eventually(async () => (await getJson(worker, "/readyz")).status === 503, 1_000);
    assert.deepEqual(await getJson(worker, "/readyz"), { status: 503, body: { status: "unavailable", reason: "shutting down" } });
    assert.equal((await getJson(worker, "/healthz")).status, 200, "the process still serves while it drains");
    assert.deepEqual(await worker.exited, { code: 0, signal: null }, worker.output());
    assert.equal(await rolloutState(rollout), "DONE", "the drain let the running task run finish");
  });
});

async function getJson(server: ServerProcess, path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.baseUrl}${path}`, { signal: AbortSignal.timeout(5_000) });
  return { status: res.status, body: (await res.json()) as Json };
}

async function scrape(server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.baseUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one sample (name with its labels, as exposed), or undefined when absent. */
function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
