// Rollout states and the actions on them (contract §12.1–§12.3, §18.7),
// with no worker running task runs, so tasks stay where the actions put
// them: stages in ENVIRONMENT order, the AUTOMATIC first stage started at
// creation, advance refused until earlier stages are DONE or SKIPPED, pause
// and resume, skip, cancel and retry of task runs, and rollout cancel.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { sql } from "slonik";
import { z } from "zod";
import { createMetrics } from "../shared/platform/metrics.ts";
import { createRollout } from "../shared/change/pipeline/rollout-creation.ts";
import { rolloutName } from "../shared/change/rollout/rollout-names.ts";
import { startWorker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { createInstanceOk, createPgTarget, eventually, pgAdminSource, testSecrets } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;

const STATEMENT = "create table t (id int)";

describe("rollouts", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let token = "";
  const targets: { test: string; prod: string } = { test: "", prod: "" };
  const drops: (() => Promise<void>)[] = [];
  const call = async (method: string, path: string, body?: unknown) => rest<Json>(method, path, { token, body });
  const ok = async (method: string, path: string, body?: unknown) => {
    const reply = await call(method, path, body);
    assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const refused = async (method: string, path: string, body: unknown, code: string, message: RegExp) => {
    const reply = await call(method, path, body);
    assert.equal(reply.body.code, code, JSON.stringify(reply.body));
    assert.match(reply.body.message, message);
  };

  /** A rollout of a new plan on both targets, made as an approval would make it. */
  const newRollout = async () => {
    const plan = await ok("POST", "/v1/projects/rollouts/plans", {
      title: "add a table",
      specs: [{ changeDatabaseConfig: { targets: [targets.prod, targets.test], statement: STATEMENT } }],
    });
    const planId = String(plan.name).split("/").at(-1)!;
    const rollout = await app.db.transaction((tx) => createRollout(tx, { projectId: "rollouts", planId, issueId: undefined, creator: "users/admin" }));
    return ok("GET", `/v1/${rolloutName(rollout)}`);
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token = await signInFirstAdmin(rest);
    await ok("POST", "/v1/projects?projectId=rollouts", {});
    // A worker only for the instances' first sync; none runs task runs here.
    const worker = await startWorker({ url: app.database.url, db: app.db, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: false, externalUrl: undefined });
    try {
      for (const environment of ["test", "prod"] as const) {
        const target = await createPgTarget();
        drops.push(target.drop);
        const instance = `ro-${environment}`;
        await createInstanceOk(rest, token, instance, { engine: "POSTGRES", environment: `environments/${environment}`, dataSources: [pgAdminSource()] });
        const name = `instances/${instance}/databases/${target.name}`;
        await eventually(async () => (await call("GET", `/v1/${name}`)).body.syncState === "OK");
        await ok("POST", "/v1/databases:transfer", { databases: [name], targetProject: "projects/rollouts" });
        targets[environment] = name;
      }
    } finally {
      await worker.stop();
    }
  });
  after(async () => {
    await app.close();
    for (const drop of drops) await drop();
  });

  it("has one stage per environment in ENVIRONMENT order and starts the AUTOMATIC first stage", async () => {
    const rollout = await newRollout();
    assert.equal(rollout.state, "RUNNING");
    assert.equal(rollout.environment, "environments/test");
    assert.deepEqual(
      rollout.stages.map((s: Json) => [s.environment, s.state]),
      [["environments/test", "RUNNING"], ["environments/prod", "NOT_STARTED"]],
    );
    const [testTask, prodTask] = rollout.tasks as [Json, Json];
    assert.equal(testTask.target, targets.test);
    assert.equal(testTask.state, "PENDING");
    assert.match(testTask.latestTaskRun, new RegExp(`^${testTask.name}/taskRuns/\\d+$`));
    assert.equal(testTask.statementSha256, createHash("sha256").update(STATEMENT).digest("hex"));
    assert.equal(prodTask.target, targets.prod);
    assert.equal(prodTask.state, "NOT_STARTED");
    assert.equal(prodTask.type, "DATABASE_MIGRATE");
    assert.deepEqual(rollout.stages[0].tasks.map((t: Json) => t.name), [testTask.name]);
  });

  it("refuses to advance a stage before the earlier ones are DONE or SKIPPED, then advances after a skip", async () => {
    const rollout = await newRollout();
    const [testTask] = rollout.tasks as [Json];
    const prodStage = rollout.stages[1].name;
    await refused("POST", `/v1/${rollout.name}:advance`, { stage: prodStage }, "failed_precondition", /stages\/test" is RUNNING/);
    await refused("POST", `/v1/${rollout.name}/tasks:batchSkip`, { tasks: [testTask.name] }, "invalid_argument", /reason/);
    const skipped = await ok("POST", `/v1/${rollout.name}/tasks:batchSkip`, { tasks: [testTask.name], reason: "applied by hand" });
    assert.deepEqual(skipped.tasks.map((t: Json) => [t.state, t.skippedReason]), [["SKIPPED", "applied by hand"]]);
    const runs = await ok("GET", `/v1/${testTask.name}/taskRuns`);
    assert.deepEqual(runs.taskRuns.map((r: Json) => r.state), ["CANCELED"]);

    const between = await ok("GET", `/v1/${rollout.name}`);
    assert.equal(between.state, "RUNNING", "a started rollout stays RUNNING until every stage is DONE or SKIPPED");
    assert.equal(between.environment, "environments/prod");
    assert.equal(between.stages[0].state, "SKIPPED");

    const advanced = await ok("POST", `/v1/${rollout.name}:advance`, { stage: prodStage });
    assert.equal(advanced.stages[1].state, "RUNNING");
    assert.equal(advanced.tasks[1].state, "PENDING");
    await refused("POST", `/v1/${rollout.name}:advance`, { stage: prodStage }, "failed_precondition", /is RUNNING, not NOT_STARTED/);
    await refused("POST", `/v1/${rollout.name}:advance`, { stage: "projects/rollouts/rollouts/999999/stages/prod" }, "invalid_argument", /not a stage of/);
  });

  it("pauses and resumes; a paused rollout cannot advance and its pending tasks say why they wait", async () => {
    const rollout = await newRollout();
    const paused = await ok("POST", `/v1/${rollout.name}:pause`, {});
    assert.equal(paused.state, "PAUSED");
    assert.equal(paused.tasks[0].waitingReason, "rollout paused");
    await refused("POST", `/v1/${rollout.name}:pause`, {}, "failed_precondition", /only a RUNNING rollout/);
    await refused("POST", `/v1/${rollout.name}:advance`, { stage: rollout.stages[1].name }, "failed_precondition", /is PAUSED/);
    const resumed = await ok("POST", `/v1/${rollout.name}:resume`, {});
    assert.equal(resumed.state, "RUNNING");
    assert.notEqual(resumed.tasks[0].waitingReason, "rollout paused");
    await refused("POST", `/v1/${rollout.name}:resume`, {}, "failed_precondition", /only a PAUSED rollout/);
  });

  it("cancels a pending task run, retries it as a new run, and cancels the rollout", async () => {
    const rollout = await newRollout();
    const task = rollout.tasks[0];
    const canceled = await ok("POST", `/v1/${task.name}/taskRuns:batchCancel`, { taskRuns: [task.latestTaskRun], reason: "wrong time" });
    assert.equal(canceled.taskRuns[0].state, "CANCELED");
    assert.match(canceled.taskRuns[0].detail, /canceled by users\/admin: wrong time/);
    await refused("POST", `/v1/${task.name}/taskRuns:batchCancel`, { taskRuns: [task.latestTaskRun] }, "failed_precondition", /already ended/);
    const afterCancel = await ok("GET", `/v1/${rollout.name}`);
    assert.equal(afterCancel.tasks[0].state, "CANCELED");
    assert.equal(afterCancel.stages[0].state, "CANCELED");

    await refused("POST", `/v1/${rollout.name}/tasks:batchRun`, { tasks: [rollout.tasks[1].name] }, "failed_precondition", /has not started/);
    const retried = await ok("POST", `/v1/${rollout.name}/tasks:batchRun`, { tasks: [task.name] });
    assert.equal(retried.taskRuns[0].state, "PENDING");
    assert.notEqual(retried.taskRuns[0].name, task.latestTaskRun);
    const all = await ok("GET", `/v1/${rollout.name}/tasks/-/taskRuns`);
    assert.deepEqual(all.taskRuns.map((r: Json) => [r.name, r.state]), [[retried.taskRuns[0].name, "PENDING"], [task.latestTaskRun, "CANCELED"]]);
    const run = await ok("GET", `/v1/${task.latestTaskRun}`);
    assert.equal(run.state, "CANCELED");
    assert.deepEqual((await ok("GET", `/v1/${task.latestTaskRun}/log`)).entries ?? [], []);

    const cancelled = await ok("POST", `/v1/${rollout.name}:cancel`, { reason: "not needed" });
    assert.equal(cancelled.state, "CANCELED");
    assert.deepEqual(cancelled.stages.map((s: Json) => s.state), ["CANCELED", "CANCELED"]);
    assert.equal(cancelled.tasks[0].state, "CANCELED");
    await refused("POST", `/v1/${rollout.name}:cancel`, {}, "failed_precondition", /is CANCELED/);
    await refused("POST", `/v1/${rollout.name}/tasks:batchRun`, { tasks: [task.name] }, "failed_precondition", /is CANCELED/);
  });

  it("answers clear errors for malformed and unknown names", async () => {
    await refused("GET", "/v1/projects/rollouts/rollouts/abc", undefined, "invalid_argument", /not a valid rollout name/);
    await refused("GET", "/v1/projects/rollouts/rollouts/999999", undefined, "not_found", /does not exist/);
    const rollout = await newRollout();
    await refused("POST", `/v1/${rollout.name}/tasks:batchRun`, { tasks: [] }, "invalid_argument", /at least one task/);
    await refused("POST", `/v1/${rollout.name}/tasks:batchRun`, { tasks: [`${rollout.name}/tasks/999999`] }, "not_found", /does not exist/);
    await refused("GET", `/v1/${rollout.tasks[0].name}/taskRuns/999999`, undefined, "not_found", /does not exist/);
  });

  it("keeps a plan with a rollout and a project with a running rollout from deletion, and filters plans by has_rollout", async () => {
    const rollout = await newRollout();
    await refused("DELETE", `/v1/${rollout.plan}`, undefined, "failed_precondition", /has a rollout/);
    const bare = await ok("POST", "/v1/projects/rollouts/plans", { title: "no rollout", specs: [{ changeDatabaseConfig: { targets: [targets.test], statement: STATEMENT } }] });
    const withRollout = (await ok("GET", "/v1/projects/rollouts/plans?filter=has_rollout%20%3D%20true&pageSize=1000")).plans.map((p: Json) => p.name);
    const without = (await ok("GET", "/v1/projects/rollouts/plans?filter=has_rollout%20%3D%20false&pageSize=1000")).plans.map((p: Json) => p.name);
    assert.ok(withRollout.includes(rollout.plan) && !withRollout.includes(bare.name));
    assert.ok(without.includes(bare.name) && !without.includes(rollout.plan));
    await refused("DELETE", "/v1/projects/rollouts", undefined, "failed_precondition", /running rollout/);
  });

  it("makes one rollout of a plan: a second creation, at once or concurrent, is ALREADY_EXISTS and writes no stage, task or run", async () => {
    const plan = await ok("POST", "/v1/projects/rollouts/plans", { specs: [{ changeDatabaseConfig: { targets: [targets.prod, targets.test], statement: STATEMENT } }] });
    const planId = String(plan.name).split("/").at(-1)!;
    const create = () => app.db.transaction((tx) => createRollout(tx, { projectId: "rollouts", planId, issueId: undefined, creator: "users/admin" }));
    const outcomes = await Promise.allSettled([create(), create()]);
    const made = outcomes.filter((o) => o.status === "fulfilled");
    assert.equal(made.length, 1, JSON.stringify(outcomes));
    const refusal = outcomes.find((o) => o.status === "rejected")!.reason;
    assert.equal(refusal.code, "already_exists");
    assert.match(refusal.message, /already has a rollout/);
    await assert.rejects(create(), { code: "already_exists" });
    const written = await app.db.one(sql.type(z.object({ rollouts: z.number(), stages: z.number(), tasks: z.number(), runs: z.number() }))`
      select (select count(*)::int from rollout where project_id = 'rollouts' and plan_id = ${planId}) as rollouts,
             (select count(*)::int from stage s join rollout r on r.project_id = s.project_id and r.id = s.rollout_id where r.project_id = 'rollouts' and r.plan_id = ${planId}) as stages,
             (select count(*)::int from task t join rollout r on r.project_id = t.project_id and r.id = t.rollout_id where r.project_id = 'rollouts' and r.plan_id = ${planId}) as tasks,
             (select count(*)::int from task_run x join rollout r on r.project_id = x.project_id and r.id = x.rollout_id where r.project_id = 'rollouts' and r.plan_id = ${planId}) as runs`);
    assert.deepEqual(written, { rollouts: 1, stages: 2, tasks: 2, runs: 1 }, "the AUTOMATIC test stage's one task has its run");
  });

  it("lists a project's rollouts newest first with paging", async () => {
    const newest = await newRollout();
    const first = await ok("GET", "/v1/projects/rollouts/rollouts?pageSize=1");
    assert.equal(first.rollouts[0].name, newest.name);
    assert.ok(first.nextPageToken);
    const second = await ok("GET", `/v1/projects/rollouts/rollouts?pageSize=1&pageToken=${first.nextPageToken}`);
    assert.notEqual(second.rollouts[0].name, newest.name);
  });
});
