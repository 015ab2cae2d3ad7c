// The split topology as it runs in production: a real API process and a real
// worker process on one store. Both are scraped (contract §15.3: the job
// metrics come from the worker, which serves its own ops port); a request's
// correlation id is followed from the API's log lines into the worker's job
// lines and the task run's log (§15.5); the worker's /readyz turns 503 while
// it drains (§15.2).
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

  it("carries a request's correlation id into its jobs: the API's lines, every line of the jobs' work in the worker, the task run's log", TEST_TIMEOUT, async () => {
    const correlated = { "x-correlation-id": "abc-123" };
    const { plan, issue, rollout } = await change("Correlated rows", "insert into item values (2);\ninsert into item values (3), (4);", correlated);
    await eventually(async () => (await rolloutState(rollout)) === "DONE", 30_000);
    const task = await firstTask(rollout);
    const taskRun = String(task.latestTaskRun);

    const apiRpcs = api.logs.filter((l) => l.json?.correlation_id === "abc-123" && l.json.msg === "rpc done").map((l) => [l.json!.rpc, l.json!.actor]);
    assert.deepEqual(apiRpcs.filter(([rpc]) => /CreatePlan|CreateIssue/.test(String(rpc))), [
      ["svc.v1.PlanService/CreatePlan", "users/admin"],
      ["svc.v1.IssueService/CreateIssue", "users/admin"],
    ]);

    const workerLines = worker.logs.flatMap((l) => (l.json ? [l.json] : []));
    const ofThePlan = workerLines.filter((l) => l.plan === plan);
    const checkEnd = ofThePlan.find((l) => l.msg === "plan check run ended");
    assert.ok(checkEnd, `no plan check line for ${plan}:\n${worker.output()}`);
    assert.equal(checkEnd.status, "DONE");
    assert.equal(typeof checkEnd.duration_ms, "number");
    const ofTheRun = workerLines.filter((l) => l.task_run === taskRun);
    assert.deepEqual(
      ofTheRun.map((l) => l.msg),
      ["task run started", "statement executed", "statement executed", "task run ended"],
      worker.output(),
    );
    for (const line of [...ofThePlan, ...ofTheRun]) assert.equal(line.correlation_id, "abc-123", JSON.stringify(line));
    for (const line of ofTheRun) {
      assert.deepEqual(
        [line.task, line.rollout, line.plan, line.issue, line.instance, line.actor],
        [task.name, rollout, plan, issue, "instances/split-pg", "users/admin"],
        JSON.stringify(line),
      );
    }
    const statements = ofTheRun.filter((l) => l.msg === "statement executed");
    assert.deepEqual(statements.map((l) => [l.statement_number, l.rows_affected]), [[1, 1], [2, 2]]);
    for (const line of statements) assert.equal(typeof line.duration_ms, "number");
    const end = ofTheRun.at(-1)!;
    assert.deepEqual([end.state, end.rows_affected], ["DONE", 3]);

    const log = await ok("GET", `/v1/${taskRun}/log`);
    assert.deepEqual((log.entries as Json[]).map((e) => [e.statement.trim(), e.correlationId]), [
      ["insert into item values (2)", "abc-123"],
      ["insert into item values (3), (4)", "abc-123"],
    ]);
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
