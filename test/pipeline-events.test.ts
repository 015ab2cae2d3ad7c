// The change pipeline's events (contract §16.2) through REST with the real
// worker: a subscriber hears, in order and with their payload basics, what a
// change to prod that fails and a change to test that succeeds emit, each
// event inside the transaction that made its change (the rows that change
// wrote carry the transaction id the subscriber read), and a subscriber that
// fails takes the change down with it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { subscribeToPipeline, type PipelineEvent } from "../shared/change/index.ts";
import { createMetrics } from "../shared/platform/metrics.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { createInstanceOk, createPgTarget, eventually, pgAdminSource, testSecrets } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restAs, restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;
type User = "admin" | "owner";
/** An event with the subscriber's transaction: its full id, and its id as the xmin of the rows it wrote shows it ("none" outside a writing transaction). */
type Heard = PipelineEvent & { fullXid: string; xid: string };

async function transactionOf(tx: CommonQueryMethods): Promise<{ fullXid: string; xid: string }> {
  const full = await tx.oneFirst(sql.type(z.object({ xid: z.string().nullable() }))`select pg_current_xact_id_if_assigned()::text as xid`);
  return full === null ? { fullXid: "none", xid: "none" } : { fullXid: full, xid: String(BigInt(full) % 2n ** 32n) };
}

describe("change pipeline events", () => {
  let app: TestApp;
  let worker: Worker;
  let rest: ReturnType<typeof restClient>;
  const token: Partial<Record<User, string>> = {};
  const targets = { test: "", prod: "" };
  const drops: (() => Promise<void>)[] = [];
  const heard: Heard[] = [];
  let unsubscribe = () => {};

  const { call, ok } = restAs<User>(() => rest, token, "admin");
  /** The transaction ids that wrote the rows `query` selects (as `select xmin::text ...`). */
  const writers = async (query: string) => (await adminQuery(query, app.database.url)).rows.map((r) => String(r.xmin));
  const fate = async (event: Heard) => (await adminQuery(`select pg_xact_status('${event.fullXid}'::xid8) as fate`, app.database.url)).rows[0]?.fate;
  const eventsOf = (issue: string) => heard.filter((e) => e.issue === issue);
  const summary = (events: Heard[]) => events.map((e) => [e.event, e.actor, e.resource]);

  before(async () => {
    unsubscribe = subscribeToPipeline(async (tx, event) => {
      heard.push({ ...event, ...(await transactionOf(tx)) });
    });
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    worker = await startWorker({ url: app.database.url, db: app.db, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: false, externalUrl: undefined });
    await makeUser(app.db, "owner");
    token.admin = await signInFirstAdmin(rest);
    token.owner = await signIn(rest, "owner");
    // Plan check errors do not hold the failing change back: it fails on its target.
    await ok("POST", "/v1/projects?projectId=events", { requirePlanCheckSuccess: false });
    const policy = await ok("GET", "/v1/projects/events:getIamPolicy");
    const bindings = [...policy.bindings, { role: "roles/projectOwner", members: ["user:login_id=owner"] }];
    await ok("POST", "/v1/projects/events:setIamPolicy", { policy: { etag: policy.etag, bindings } });
    for (const environment of ["test", "prod"] as const) {
      const target = await createPgTarget();
      drops.push(target.drop);
      await createInstanceOk(rest, token.admin!, `events-${environment}`, { engine: "POSTGRES", environment: `environments/${environment}`, dataSources: [pgAdminSource()] });
      targets[environment] = `instances/events-${environment}/databases/${target.name}`;
      await eventually(async () => (await call("GET", `/v1/${targets[environment]}`)).syncState === "OK");
    }
    await ok("POST", "/v1/databases:transfer", { databases: [targets.test, targets.prod], targetProject: "projects/events" });
  });
  after(async () => {
    unsubscribe();
    await worker?.stop();
    await app?.close();
    for (const drop of drops) await drop();
  });

  /** A plan on `target` and, once its checks have finished (so its approval is decided at once), its issue, both by the owner. */
  const openIssue = async (target: string, statement: string) => {
    const plan = await ok("POST", "/v1/projects/events/plans", { title: `change of ${target}`, specs: [{ changeDatabaseConfig: { targets: [target], statement } }] }, "owner");
    await eventually(async () => (await ok("GET", `/v1/${plan.name}/planCheckRuns`)).planCheckRuns?.[0]?.status === "DONE", 60_000);
    return ok("POST", "/v1/projects/events/issues", { plan: plan.name }, "owner");
  };
  const rolloutWhen = async (name: string, done: (rollout: Json) => boolean) => {
    let rollout: Json = {};
    await eventually(async () => done((rollout = await call("GET", `/v1/${name}`))), 60_000);
    return rollout;
  };

  it("tells a failed change to prod: created, approval asked, rejected, asked again, approved, stage started, task run failed, rollout failed", async () => {
    const issue = await openIssue(targets.prod, "create table kept_out (id int);\nselect 1 / 0;");
    assert.equal(issue.approvalStatus, "PENDING");
    await ok("POST", `/v1/${issue.name}:reject`, { comment: "say why" });
    await ok("POST", `/v1/${issue.name}:requestReview`, { comment: "it divides on purpose" }, "owner");
    const approved = await ok("POST", `/v1/${issue.name}:approve`, { comment: "go" });
    const rollout = await ok("GET", `/v1/${approved.rollout}`);
    const stage = rollout.stages[0].name;
    await ok("POST", `/v1/${approved.rollout}:advance`, { stage }, "owner");
    const failed = await rolloutWhen(approved.rollout, (r) => r.state === "FAILED");
    const taskRun = failed.tasks[0].latestTaskRun;

    const events = eventsOf(issue.name);
    assert.deepEqual(summary(events), [
      ["issue.created", "users/owner", issue.name],
      ["issue.approvalRequested", "users/owner", issue.name],
      ["issue.rejected", "users/admin", issue.name],
      ["issue.approvalRequested", "users/owner", issue.name],
      ["issue.approved", "users/admin", issue.name],
      ["rollout.stageStarted", "users/owner", stage],
      ["taskRun.failed", "users/owner", taskRun],
      ["rollout.failed", "users/owner", approved.rollout],
    ]);
    const [created, asked, rejected, askedAgain, approval, started, runFailed, rolloutFailed] = events as [Heard, Heard, Heard, Heard, Heard, Heard, Heard, Heard];
    assert.deepEqual(created.detail, { plan: issue.plan });
    assert.deepEqual(asked.detail, { step: 0, roles: ["roles/projectOwner"] });
    assert.deepEqual(rejected.detail, { step: 0, comment: "say why" });
    assert.deepEqual(askedAgain.detail, { step: 0, roles: ["roles/projectOwner"] });
    assert.deepEqual(approval.detail, { step: 0 });
    assert.deepEqual(started.detail, { environment: "environments/prod" });
    const failure = runFailed.detail as Json;
    assert.match(failure.error, /division by zero/);
    assert.match(failure.detail, /statement 2 of 2 failed/);
    assert.ok(events.every((e) => e.title === issue.title && e.time instanceof Date));
    const times = events.map((e) => e.time.getTime());
    assert.deepEqual(times, [...times].sort((a, b) => a - b));

    // Each event was heard inside the transaction that wrote its change: the history entry of a
    // decision, the failed run's end, the rollout's last state.
    const [projectId, issueId] = [issue.name.split("/")[1], issue.name.split("/").at(-1)];
    const history = await writers(`select xmin::text from issue_comment where project_id = '${projectId}' and issue_id = '${issueId}' and type = 'EVENT' order by id`);
    assert.ok(history.includes(rejected.xid) && history.includes(approval.xid) && history.includes(runFailed.xid), JSON.stringify({ history, events }));
    const runId = Number(taskRun.split("/").at(-1));
    assert.deepEqual(await writers(`select xmin::text from task_run where id = ${runId}`), [runFailed.xid]);
    const rolloutId = approved.rollout.split("/").at(-1);
    assert.deepEqual(await writers(`select xmin::text from rollout where project_id = '${projectId}' and id = '${rolloutId}'`), [rolloutFailed.xid]);
    for (const event of events) assert.equal(await fate(event), "committed");
  });

  it("tells a change to test that needs no approval: created, stage started (AUTOMATIC), rollout done; and a comment", async () => {
    const issue = await openIssue(targets.test, "create table arrived (id int)");
    assert.equal(issue.approvalStatus, "SKIPPED");
    const done = await rolloutWhen(issue.rollout, (r) => r.state === "DONE" || r.state === "FAILED");
    assert.equal(done.state, "DONE");
    const comment = await ok("POST", `/v1/${issue.name}/comments`, { comment: "landed" }, "owner");

    const events = eventsOf(issue.name);
    assert.deepEqual(summary(events), [
      ["issue.created", "users/owner", issue.name],
      ["rollout.stageStarted", "users/owner", done.stages[0].name],
      ["rollout.done", "users/owner", issue.rollout],
      ["issue.commented", "users/owner", issue.name],
    ]);
    assert.deepEqual(events[1]!.detail, { environment: "environments/test" });
    assert.deepEqual(events[3]!.detail, { comment: comment.name });
    const commentId = Number(comment.name.split("/").at(-1));
    assert.deepEqual(await writers(`select xmin::text from issue_comment where id = ${commentId}`), [events[3]!.xid]);
  });

  it("fails the change when a subscriber fails: the other subscribers' transaction is rolled back with it", async () => {
    const issue = await openIssue(targets.test, "create table another (id int)");
    const refuse = subscribeToPipeline(async (_tx, event) => {
      if (event.event === "issue.commented") throw new Error("the subscriber cannot take the event");
    });
    try {
      const reply = await call("POST", `/v1/${issue.name}/comments`, { comment: "lost" }, "owner");
      assert.equal(reply.httpStatus, 500, JSON.stringify(reply));
    } finally {
      refuse();
    }
    const comments = await ok("GET", `/v1/${issue.name}/comments`);
    assert.ok(!(comments.issueComments as Json[]).some((c) => c.comment === "lost"));
    const commented = eventsOf(issue.name).filter((e) => e.event === "issue.commented");
    assert.equal(commented.length, 1);
    assert.equal(await fate(commented[0]!), "aborted");
  });
});
