// Replicas as production runs them (contract §12.6, §15.3, §15.6, §15.7):
// real processes on one store. Two API processes and two workers run a
// rollout; the leading worker is SIGKILLed in the middle of it and an API
// process restarts. The other worker leads within 2 s, every task run ends
// final, the retry applies each change once and no change twice on its
// target, each run is started by one worker once, the dead worker's jobs
// are cleared, and every process serves its metrics. Before that, the two
// API processes hold one user's rate limit together, whether the user's
// calls are spread over both or all sent to one.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { adminQuery, createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { createInstanceOk, createPgTarget, eventually, pgAdminSource } from "./helpers/instances.ts";
import { sample, sampleSum, scrapeMetrics } from "./helpers/metrics.ts";
import { restClient } from "./helpers/rest.ts";
import { HOLD_TABLE, WAIT_WHILE_HELD } from "./helpers/rollout-harness.ts";
import { killAllServers, type LogLine, type ServerProcess, spawnServer } from "./helpers/server-process.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, STRONG_PASSWORD } from "./helpers/users.ts";

type Json = Record<string, any>;
type Target = Awaited<ReturnType<typeof createPgTarget>>;

const TEST_TIMEOUT = { timeout: 120_000 };
/** The API processes' --rate-limit-per-user: half the default, so the test sends fewer calls; the administrator's stay far below it. */
const LIMIT = 300;
const CALLS = 1.5 * LIMIT;
const IN_FLIGHT = 8;
const FINAL = new Set(["DONE", "FAILED", "CANCELED"]);
const isLeaderLine = (line: LogLine) => line.json?.msg === "this process is the leader: running the background runners";

after(() => killAllServers());

describe("replicas: two API processes and two workers on one store", () => {
  let database: TestDatabase;
  const targets: Target[] = [];
  const env = () => ({ PG_URL: database.url });
  const startApi = () =>
    spawnServer({ entry: "api/main.ts", args: ["--ha", "--bootstrap-admin-password", ADMIN.password, "--rate-limit-per-user", String(LIMIT)], env: env() });
  const startWorker = () => spawnServer({ entry: "worker/main.ts", args: ["--ha"], env: env() });
  let apiA: ServerProcess;
  let apiB: ServerProcess;
  /** The first worker: it starts alone, so it leads. */
  let first: ServerProcess;
  let token = "";
  let resources: string[] = [];
  const call = (api: ServerProcess, method: string, path: string, body?: unknown) => restClient(api.baseUrl)<Json>(method, path, { token, body });
  const ok = async (api: ServerProcess, method: string, path: string, body?: unknown) => {
    const reply = await call(api, method, path, body);
    assert.equal(reply.status, 200, `${method} ${path} on port ${api.port}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };

  before(async () => {
    database = await createTestDatabase();
    for (let i = 0; i < 3; i++) targets.push(await createPgTarget([HOLD_TABLE, "create table applied (n int)"]));
    [apiA, apiB, first] = await Promise.all([startApi(), startApi(), startWorker()]);
    await first.waitForLog(isLeaderLine, 10_000, "the first worker's leader line");
    token = await signInFirstAdmin(restClient(apiA.baseUrl));
    await ok(apiA, "POST", "/v1/projects?projectId=ha", { requirePlanCheckSuccess: false });
    await createInstanceOk(restClient(apiB.baseUrl), token, "ha-pg", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    resources = targets.map((target) => `instances/ha-pg/databases/${target.name}`);
    for (const resource of resources) await eventually(async () => (await call(apiA, "GET", `/v1/${resource}`)).body.syncState === "OK");
    await ok(apiB, "POST", "/v1/databases:transfer", { databases: resources, targetProject: "projects/ha" });
  });
  after(async () => {
    await killAllServers();
    await database?.drop();
    for (const target of targets) await target.drop();
  });

  it("holds one user's rate limit across both API processes within ±10 %, calls spread over both or all sent to one", TEST_TIMEOUT, async (t) => {
    const tokens = new Map<string, string>();
    for (const loginId of ["spread", "sticky"]) {
      await ok(apiA, "POST", `/v1/users?loginId=${loginId}`, { password: STRONG_PASSWORD });
      tokens.set(loginId, await signIn(restClient(apiB.baseUrl), loginId));
    }
    /** Sends CALLS calls of the user, the i-th to pick(i), IN_FLIGHT at a time; answers how many were admitted (the others must be 429). */
    const admitted = async (loginId: string, pick: (i: number) => ServerProcess) => {
      let count = 0;
      const lane = async (from: number) => {
        for (let i = from; i < CALLS; i += IN_FLIGHT) {
          const reply = await restClient(pick(i).baseUrl)("GET", "/v1/users/me", { token: tokens.get(loginId) });
          if (reply.status === 200) count++;
          else assert.equal(reply.status, 429, JSON.stringify(reply.body));
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => lane(i)));
      return count;
    };
    const spread = await admitted("spread", (i) => (i % 2 === 0 ? apiA : apiB));
    const sticky = await admitted("sticky", () => apiB);
    t.diagnostic(`${CALLS} calls under a limit of ${LIMIT}: ${spread} admitted spread over both processes, ${sticky} all sent to one`);
    for (const count of [spread, sticky]) assert.ok(count >= 0.9 * LIMIT && count <= 1.1 * LIMIT, `${spread} spread, ${sticky} on one`);
  });

  it("refuses a logged-out session and a removed binding on the very next request to the other process (the access caches)", TEST_TIMEOUT, async () => {
    await ok(apiA, "POST", "/v1/users?loginId=viewer", { password: STRONG_PASSWORD });
    const first = await signIn(restClient(apiB.baseUrl), "viewer");
    const changed = await restClient(apiB.baseUrl)("PATCH", "/v1/users/viewer?updateMask=password", {
      token: first,
      body: { user: { password: `${STRONG_PASSWORD}-2` }, currentPassword: STRONG_PASSWORD },
    });
    assert.equal(changed.status, 200, "the password a user created by an administrator must change first");
    const viewer = await signIn(restClient(apiB.baseUrl), "viewer", `${STRONG_PASSWORD}-2`);
    const asViewer = async (api: ServerProcess, path: string) => (await restClient(api.baseUrl)("GET", path, { token: viewer })).status;
    const warm = async (path: string) => {
      for (const api of [apiA, apiB, apiA, apiB]) assert.equal(await asViewer(api, path), 200, `${path} on port ${api.port}`);
    };
    // A workspace member does not search the audit log; a workspace DBA does.
    const audit = "/v1/auditLogs?pageSize=1";
    assert.equal(await asViewer(apiB, audit), 403, "a workspace member searching the audit log");
    const policy = (await ok(apiA, "GET", "/v1/workspaces/-:getIamPolicy")) as { bindings?: Json[]; etag: string };
    const bindings = policy.bindings ?? [];
    const granted = (await ok(apiA, "POST", "/v1/workspaces/-:setIamPolicy", {
      policy: { bindings: [...bindings, { role: "roles/workspaceDBA", members: ["user:login_id=viewer"] }], etag: policy.etag },
    })) as { etag: string };
    await warm(audit);
    await ok(apiA, "POST", "/v1/workspaces/-:setIamPolicy", { policy: { bindings, etag: granted.etag } });
    assert.equal(await asViewer(apiB, audit), 403, "the removed binding still served on the other process");

    await warm("/v1/users/me");
    assert.equal((await restClient(apiA.baseUrl)("POST", "/v1/auth/logout", { token: viewer, body: {} })).status, 200);
    assert.equal(await asViewer(apiB, "/v1/users/me"), 401, "the logged-out session still served on the other process");
  });

  it("hands the lead over within 2 s of a SIGKILL, ends every run, applies each change once, and every process serves metrics", TEST_TIMEOUT, async (t) => {
    const applied = async (target: Target) => Number((await target.query("select count(*)::int as n from applied")).rows[0].n);
    const tasksOf = async (api: ServerProcess, rollout: string) => {
      const tasks = (await ok(api, "GET", `/v1/${rollout}`)).tasks as Json[];
      return resources.map((resource) => tasks.find((task) => task.target === resource)!);
    };
    const runsOf = async (api: ServerProcess, task: Json) => ((await ok(api, "GET", `/v1/${task.name}/taskRuns`)).taskRuns ?? []) as Json[];
    const taskRunJobs = async () =>
      Number((await adminQuery(`select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
                                where t.identifier = 'taskRun.execute'`, database.url)).rows[0].n);

    // One transaction per target: the row, then a wait while the target holds it (its dry run passes at once).
    const statement = `insert into applied values (1);\n${WAIT_WHILE_HELD};`;
    const plan = await ok(apiA, "POST", "/v1/projects/ha/plans", { title: "Replicas", specs: [{ changeDatabaseConfig: { targets: resources, statement } }] });
    await eventually(async () => {
      const checks = ((await ok(apiB, "GET", `/v1/${plan.name}/planCheckRuns`)).planCheckRuns ?? []) as Json[];
      return checks.length > 0 && checks.every((check) => check.status !== "RUNNING");
    });
    for (const target of targets.slice(1)) await target.query("update hold set held = true");
    const rollout = String((await ok(apiB, "POST", "/v1/projects/ha/issues", { plan: plan.name })).rollout);
    assert.match(rollout, /^projects\/ha\/rollouts\/\d+$/, "a test-only change needs no approval: the issue has its rollout");
    await eventually(async () => (await tasksOf(apiA, rollout)).map((task) => task.state).join() === "DONE,RUNNING,RUNNING", 30_000);

    // The second worker joins while the first, the leader, runs the two held runs.
    const second = await startWorker();
    assert.ok(!second.logs.some(isLeaderLine), "the second worker does not lead while the first lives");
    for (const server of [apiA, apiB, first, second]) assertServesMetrics(await scrapeMetrics(server.baseUrl));

    const killedAt = performance.now();
    first.kill("SIGKILL");
    await second.waitForLog(isLeaderLine, 10_000, "the second worker's leader line");
    const takeoverMs = performance.now() - killedAt;
    t.diagnostic(`the second worker led ${Math.round(takeoverMs)} ms after the first was killed`);
    assert.ok(takeoverMs < 2_000, `takeover took ${Math.round(takeoverMs)} ms`);
    assert.deepEqual(await first.exited, { code: null, signal: "SIGKILL" });

    // An API process restarts and a worker replaces the dead one, while the other API process answers.
    const stopped = apiA;
    const [restarted, replacement] = await Promise.all([
      stopped.stop().then((exit) => {
        assert.deepEqual(exit, { code: 0, signal: null }, stopped.output());
        return startApi();
      }),
      startWorker(),
      eventually(async () => (await tasksOf(apiB, rollout)).every((task) => FINAL.has(task.state)), 30_000),
    ]);
    apiA = restarted;
    const [done, ...lost] = await tasksOf(apiA, rollout);
    assert.equal(done!.state, "DONE");
    for (const task of lost) {
      const [run] = await runsOf(apiA, task);
      assert.deepEqual([run!.state, run!.detail], ["FAILED", "worker lost during execution; rolled back"], JSON.stringify(run));
    }
    assert.deepEqual(await Promise.all(targets.map(applied)), [1, 0, 0], "the dead worker's transactions were rolled back");

    // The retry, through the restarted API process, runs on the live workers.
    for (const target of targets.slice(1)) await target.query("update hold set held = false");
    await ok(apiA, "POST", `/v1/${rollout}/tasks:batchRun`, { tasks: lost.map((task) => task.name) });
    await eventually(async () => (await ok(apiB, "GET", `/v1/${rollout}`)).state === "DONE", 30_000);
    await eventually(async () => (await taskRunJobs()) === 0, 45_000); // the dead worker's jobs are unlocked and end

    const runs = await Promise.all((await tasksOf(apiA, rollout)).map((task) => runsOf(apiA, task)));
    assert.deepEqual(runs.map((ofTask) => ofTask.map((run) => run.state)), [["DONE"], ["DONE", "FAILED"], ["DONE", "FAILED"]]);
    assert.deepEqual(await Promise.all(targets.map(applied)), [1, 1, 1], "each change applied once, none twice");
    // Each run was started once, by one worker: the dead worker's jobs, run again, found their runs final.
    const started = [first, second, replacement].flatMap((worker) => worker.logs.filter((l) => l.json?.msg === "task run started").map((l) => String(l.json!.task_run)));
    assert.deepEqual(started.sort(), runs.flat().map((run) => String(run.name)).sort());
    assert.ok(!replacement.logs.some(isLeaderLine), "the replacement does not lead: the second worker still does");

    const [afterA, afterB, ...workerMetrics] = await Promise.all([apiA, apiB, second, replacement].map((server) => scrapeMetrics(server.baseUrl)));
    for (const metrics of [afterA!, afterB!, ...workerMetrics]) assertServesMetrics(metrics);
    for (const metrics of [afterA!, afterB!]) assert.ok(metrics.includes("http_requests_total{"), "an API process counts its requests");
    const settled = workerMetrics.reduce((sum, metrics) => sum + sampleSum(metrics, "svc_task_run_total"), 0);
    assert.ok(settled >= 2, `the live workers count the retried runs they settled (${settled})`);
  });
});

/** A process's exposition: its own runtime and the queue's gauges. */
function assertServesMetrics(metrics: string): void {
  assert.equal(typeof sample(metrics, "process_resident_memory_bytes"), "number");
  assert.equal(typeof sample(metrics, "svc_jobs_pending"), "number");
}
