// Crash safety of task runs (contract §12.6, issue 6 item 5): a real worker
// process is SIGKILLed while it executes a task run, at a varying moment;
// another worker starts; the run must be final within 60 s of the kill, its
// outcome must match the target (a transactional run DONE only if its
// transaction committed, FAILED "rolled back" only if nothing was applied, a
// statement-by-statement run FAILED with what its log shows), no statement
// is ever applied twice, and the job the dead worker held is unlocked and
// ends. `npm run fault:worker-kill` repeats the kill WORKER_KILL_REPETITIONS
// times (20 by default); the suite runs it REPETITIONS_IN_SUITE times.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "slonik";
import { z } from "zod";
import { createRollout } from "../shared/change/pipeline/rollout-creation.ts";
import { rolloutName } from "../shared/change/rollout/rollout-names.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { createInstanceOk, createPgTarget, eventually, pgAdminSource } from "./helpers/instances.ts";
import { restClient } from "./helpers/rest.ts";
import { killAllServers, spawnServer, type ServerProcess } from "./helpers/server-process.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;

const REPETITIONS_IN_SUITE = 3;
const repetitions = Number(process.env.WORKER_KILL_REPETITIONS ?? REPETITIONS_IN_SUITE);
const FINAL_WITHIN_MS = 60_000;

after(() => killAllServers());

describe("a worker killed mid-run", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let token = "";
  let target: Awaited<ReturnType<typeof createPgTarget>>;
  let resource = "";
  let worker: ServerProcess;
  const ok = async (method: string, path: string, body?: unknown) => {
    const reply = await rest<Json>(method, path, { token, body });
    assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const startWorker = () => spawnServer({ entry: "worker/main.ts", env: { PG_URL: app.database.url } });
  const runState = (runId: number) => app.db.oneFirst(sql.type(z.object({ state: z.string() }))`select state from task_run where id = ${runId}`);
  const backendRecorded = (runId: number) => app.db.exists(sql.unsafe`select 1 from task_run where id = ${runId} and backend is not null`);

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token = await signInFirstAdmin(rest);
    await ok("POST", "/v1/projects?projectId=crash", { requirePlanCheckSuccess: false });
    target = await createPgTarget(["create table applied (n int)"]);
    worker = await startWorker();
    await createInstanceOk(rest, token, "crash-pg", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    resource = `instances/crash-pg/databases/${target.name}`;
    await eventually(async () => (await rest<Json>("GET", `/v1/${resource}`, { token })).body.syncState === "OK");
    await ok("POST", "/v1/databases:transfer", { databases: [resource], targetProject: "projects/crash" });
  });
  after(async () => {
    await killAllServers();
    await app?.close();
    await target?.drop();
  });

  it(`ends every run within 60 s and never applies a statement twice (${repetitions} kills)`, { timeout: repetitions * 90_000 + 60_000 }, async (t) => {
    const runIds: number[] = [];
    for (let round = 1; round <= repetitions; round++) {
      // Even rounds: one transaction; odd rounds: statement by statement (CREATE INDEX CONCURRENTLY).
      const transactional = round % 2 === 0;
      const statement = transactional
        ? `insert into applied values (${round});\nselect pg_sleep(0.6);`
        : `insert into applied values (${round});\ncreate index concurrently applied_${round} on applied (n);\nselect pg_sleep(0.6);`;
      const plan = await ok("POST", "/v1/projects/crash/plans", { title: `round ${round}`, specs: [{ changeDatabaseConfig: { targets: [resource], statement } }] });
      const planId = String(plan.name).split("/").at(-1)!;
      const rollout = await app.db.transaction((tx) => createRollout(tx, { projectId: "crash", planId, issueId: undefined, creator: "users/admin" }));
      const task = (await ok("GET", `/v1/${rolloutName(rollout)}`)).tasks[0] as Json;
      const runId = Number(String(task.latestTaskRun).split("/").at(-1));
      runIds.push(runId);

      await eventually(() => backendRecorded(runId), 30_000);
      await sleep((round * 211) % 700); // kill at a different moment each round
      worker.kill("SIGKILL");
      const killedAt = performance.now();
      await worker.exited;
      worker = await startWorker();

      await eventually(async () => ["DONE", "FAILED", "CANCELED"].includes(await runState(runId)), FINAL_WITHIN_MS - (performance.now() - killedAt));
      const finalMs = performance.now() - killedAt;
      const run = (await ok("GET", `/v1/${task.name}/taskRuns`)).taskRuns[0] as Json;
      const applied = ((await target.query(`select count(*)::int as n from applied where n = ${round}`)) as { rows: Json[] }).rows[0]!.n as number;
      t.diagnostic(`round ${round} (${transactional ? "transactional" : "statement by statement"}): ${run.state} after ${Math.round(finalMs)} ms: ${run.detail}; applied ${applied}×`);
      assert.ok(applied <= 1, `round ${round}: the insert was applied ${applied} times`);
      if (run.state === "DONE") assert.equal(applied, 1, run.detail);
      else {
        assert.equal(run.state, "FAILED", run.detail);
        assert.match(run.detail, /^worker lost during execution; /);
        if (transactional) {
          assert.equal(run.detail, "worker lost during execution; rolled back");
          assert.equal(applied, 0);
        } else if (/statements? 1(–\d+)? (was|were) applied according to the log/.test(run.detail)) {
          assert.equal(applied, 1, run.detail);
        } else {
          assert.match(run.detail, /no statement was applied according to the log; statement 1 may have been applied/);
        }
      }
    }
    // The dead workers' jobs are unlocked, run again, and do nothing.
    const jobsLeft = () =>
      app.db.oneFirst(sql.type(z.object({ n: z.coerce.number() }))`
        select count(*) as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = 'taskRun.execute' and (j.payload->>'taskRunId')::bigint = any(${sql.array(runIds, "int8")})`);
    await eventually(async () => (await jobsLeft()) === 0, 45_000);
    const total = ((await target.query("select count(*)::int as n, count(distinct n)::int as d from applied")) as { rows: Json[] }).rows[0]!;
    assert.equal(total.n, total.d, "no round's insert is there twice");
  });
});
