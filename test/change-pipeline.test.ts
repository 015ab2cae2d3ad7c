// The change pipeline end to end (issue 6), through REST and Connect with the
// real worker against real PostgreSQL and (where one answers) MariaDB
// targets: plan → checks → issue → approval by the right role (refused for
// the wrong one and for the creator) → rollout → the AUTOMATIC test stage
// runs by itself → advance prod → the tables exist on the targets; a
// release applied the same way records its revisions; and the audit trail
// holds every step.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { IssueService } from "../shared/gen/svc/v1/issue_service_pb.js";
import { Rollout_State, RolloutService, Task_State } from "../shared/gen/svc/v1/rollout_service_pb.js";
import { createMetrics } from "../shared/platform/metrics.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { connectMysql, createInstanceOk, createPgTarget, eventually, mysqlAdminSource, pgAdminSource, testSecrets, uniqueName } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restAs, restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;
type User = "admin" | "owner" | "dev";

describe("change pipeline end to end", () => {
  let app: TestApp;
  let worker: Worker;
  let rest: ReturnType<typeof restClient>;
  const token: Partial<Record<User, string>> = {};
  const targets = { test: "", prod: "", mysql: "" };
  const cleanups: (() => Promise<unknown>)[] = [];
  let pgQuery: { test: (sql: string) => Promise<any>; prod: (sql: string) => Promise<any> };
  let mysqlDatabase = "";

  const { call, ok } = restAs<User>(() => rest, token, "admin");
  const transport = () => createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" });
  const as = (user: User) => ({ headers: { authorization: `Bearer ${token[user]}` } });
  const settledIssue = async (name: string) => {
    let issue: Json = {};
    await eventually(async () => (issue = await call("GET", `/v1/${name}`)).approvalStatus !== "CHECKING", 60_000);
    return issue;
  };
  const rolloutWhen = async (name: string, done: (rollout: Json) => boolean) => {
    let rollout: Json = {};
    await eventually(async () => done((rollout = await call("GET", `/v1/${name}`))), 60_000).catch((error: Error) => {
      throw new Error(`${error.message}; the rollout: ${JSON.stringify(rollout)}`);
    });
    return rollout;
  };
  const stage = (rollout: Json, environment: string) => (rollout.stages as Json[]).find((s) => s.environment === `environments/${environment}`)!;

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    worker = await startWorker({ url: app.database.url, db: app.db, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: false, externalUrl: undefined });
    for (const user of ["owner", "dev"] as const) await makeUser(app.db, user);
    token.admin = await signInFirstAdmin(rest);
    for (const user of ["owner", "dev"] as const) token[user] = await signIn(rest, user);
    await ok("POST", "/v1/projects?projectId=pipeline", {});
    const policy = await ok("GET", "/v1/projects/pipeline:getIamPolicy");
    await ok("POST", "/v1/projects/pipeline:setIamPolicy", {
      policy: {
        etag: policy.etag,
        bindings: [
          ...policy.bindings,
          { role: "roles/projectOwner", members: ["user:login_id=owner"] },
          { role: "roles/projectDeveloper", members: ["user:login_id=dev"] },
        ],
      },
    });

    const [test, prod] = await Promise.all([createPgTarget(), createPgTarget()]);
    cleanups.push(test.drop, prod.drop);
    pgQuery = { test: test.query, prod: prod.query };
    await createInstanceOk(rest, token.admin!, "pipe-test", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    await createInstanceOk(rest, token.admin!, "pipe-prod", { engine: "POSTGRES", environment: "environments/prod", dataSources: [pgAdminSource()] });
    targets.test = `instances/pipe-test/databases/${test.name}`;
    targets.prod = `instances/pipe-prod/databases/${prod.name}`;
    const adopt = [targets.test, targets.prod];
    const mysql = await connectMysql();
    if (mysql) {
      mysqlDatabase = uniqueName("pipe");
      await mysql.query(`create database ${mysqlDatabase}`);
      cleanups.push(async () => {
        await mysql.query(`drop database if exists ${mysqlDatabase}`);
        await mysql.end();
      });
      await createInstanceOk(rest, token.admin!, "pipe-mysql", { engine: "MYSQL", environment: "environments/prod", dataSources: [mysqlAdminSource()] });
      targets.mysql = `instances/pipe-mysql/databases/${mysqlDatabase}`;
      adopt.push(targets.mysql);
    }
    for (const name of adopt) await eventually(async () => (await call("GET", `/v1/${name}`)).syncState === "OK");
    await ok("POST", "/v1/databases:transfer", { databases: adopt, targetProject: "projects/pipeline" });
  });
  after(async () => {
    await worker.stop();
    await app.close();
    for (const cleanup of cleanups) await cleanup();
  });

  it("takes a change from plan to every target, with approval by the right role and a complete audit trail", async () => {
    const prodTargets = [targets.prod, ...(targets.mysql ? [targets.mysql] : [])];
    const plan = await ok(
      "POST",
      "/v1/projects/pipeline/plans",
      {
        title: "Add the invoice table",
        specs: [{ changeDatabaseConfig: { targets: [targets.test, ...prodTargets], statement: "create table invoice (id int primary key, total int);\ninsert into invoice values (1, 10);" } }],
      },
      "owner",
    );
    const created = await ok("POST", "/v1/projects/pipeline/issues", { plan: plan.name }, "owner");
    const issue = await settledIssue(created.name);
    assert.equal(issue.approvalStatus, "PENDING", JSON.stringify(issue));
    assert.deepEqual(issue.approvalTemplate.steps, [{ roles: ["roles/projectOwner"] }]);

    // The developer holds no role of the step; the creator may not approve their own issue.
    const issues = createClient(IssueService, transport());
    await assert.rejects(issues.approveIssue({ name: issue.name }, as("dev")), (error: unknown) => {
      assert.ok(error instanceof ConnectError);
      assert.equal(error.code, Code.PermissionDenied);
      assert.match(error.rawMessage, /roles\/projectOwner/);
      return true;
    });
    const self = await call("POST", `/v1/${issue.name}:approve`, { comment: "mine" }, "owner");
    assert.equal(self.code, "permission_denied");
    assert.match(self.message, /self-approval is not allowed/);

    // The workspace admin is a project owner too (it created the project).
    const approved = await issues.approveIssue({ name: issue.name, comment: "looks right" }, as("admin"));
    assert.equal(approved.rollout !== "", true, "approval creates the rollout");

    // The test stage is AUTOMATIC: it runs by itself; prod waits for advance.
    const rollouts = createClient(RolloutService, transport());
    const afterTest = await rolloutWhen(approved.rollout, (r) => stage(r, "test").state === "DONE");
    assert.equal(stage(afterTest, "prod").state, "NOT_STARTED");
    assert.equal(afterTest.state, "RUNNING");
    assert.deepEqual((await pgQuery.test("select total from invoice")).rows, [{ total: 10 }]);
    await assert.rejects(pgQuery.prod("select 1 from invoice"), /does not exist/);

    const advanced = await rollouts.advanceRollout({ name: approved.rollout, stage: stage(afterTest, "prod").name }, as("owner"));
    assert.notEqual(advanced.state, Rollout_State.FAILED);
    const done = await rolloutWhen(approved.rollout, (r) => r.state === "DONE" || r.state === "FAILED");
    assert.equal(done.state, "DONE", JSON.stringify(done));
    assert.ok((done.tasks as Json[]).every((t) => t.state === "DONE"));
    assert.deepEqual((await pgQuery.prod("select total from invoice")).rows, [{ total: 10 }]);
    if (targets.mysql) {
      const mysql = (await connectMysql())!;
      const [rows] = await mysql.query(`select total from ${mysqlDatabase}.invoice`);
      await mysql.end();
      assert.deepEqual(rows, [{ total: 10 }]);
    }

    // The finished rollout's issue is DONE; each task run has its statement log.
    assert.equal((await ok("GET", `/v1/${issue.name}`)).status, "DONE");
    const prodTask = (done.tasks as Json[]).find((t) => t.target === targets.prod)!;
    const log = await ok("GET", `/v1/${prodTask.latestTaskRun}/log`);
    assert.deepEqual(log.entries.map((e: Json) => e.statement.trim()), ["create table invoice (id int primary key, total int)", "insert into invoice values (1, 10)"]);
    const viaConnect = await rollouts.getRollout({ name: approved.rollout }, as("dev"));
    assert.ok(viaConnect.tasks.every((t) => t.state === Task_State.DONE));

    // The audit trail holds every step, by whom.
    const audit = await ok("POST", "/v1/auditLogs:search", { filter: `resource:"projects/pipeline/"`, pageSize: 200 });
    const actions = new Set((audit.auditLogs as Json[]).filter((r) => r.status.code === "ok").map((r) => `${r.action} ${r.actor}`));
    for (const expected of ["bb.plans.create users/owner", "bb.issues.create users/owner", "bb.issue.approve users/admin", "bb.rollouts.advance users/owner"]) {
      assert.ok(actions.has(expected), `${expected} in ${[...actions].join(", ")}`);
    }
    const refusals = (audit.auditLogs as Json[]).filter((r) => r.action === "bb.issue.approve" && r.status.code === "permission_denied");
    assert.deepEqual(refusals.map((r) => r.actor).sort(), ["users/dev", "users/owner"]);
  });

  it("applies a release, records its revisions, and leaves out versions already applied", async () => {
    const release = await ok("POST", "/v1/projects/pipeline/releases", {
      title: "v1",
      files: [
        { path: "0002_add_email.sql", version: "1.1", statement: "alter table customer add column email text;" },
        { path: "0001_customer.sql", version: "1.0", statement: "create table customer (id int primary key);" },
      ],
    });
    const plan = await ok("POST", `/v1/${release.name}:createPlan`, { targets: [targets.test] });
    const issue = await settledIssue((await ok("POST", "/v1/projects/pipeline/issues", { plan: plan.name })).name);
    assert.equal(issue.approvalStatus, "SKIPPED", "a test-only change needs no approval by default");
    const done = await rolloutWhen(issue.rollout, (r) => r.state === "DONE" || r.state === "FAILED");
    assert.equal(done.state, "DONE", JSON.stringify(done));
    assert.deepEqual((await pgQuery.test("select column_name from information_schema.columns where table_name = 'customer' order by 1")).rows, [
      { column_name: "email" },
      { column_name: "id" },
    ]);
    const revisions = await ok("GET", `/v1/${targets.test}/revisions`);
    assert.deepEqual((revisions.revisions as Json[]).map((r) => r.version).sort(), ["1.0", "1.1"]);
    assert.ok((revisions.revisions as Json[]).every((r) => r.taskRun && r.release === release.name));

    // Everything is applied on test: a new plan from the release has nothing to do there.
    const again = await call("POST", `/v1/${release.name}:createPlan`, { targets: [targets.test] });
    assert.equal(again.code, "failed_precondition", JSON.stringify(again));
  });

  it("skips a release task whose version the target already records, and fails one recorded with another checksum, before touching the target", async () => {
    const statement = "create table ledger (id int primary key);";
    const release = await ok("POST", "/v1/projects/pipeline/releases", { title: "v2", files: [{ path: "0003_ledger.sql", version: "2.0", statement }] });
    const sha256 = release.files[0].sha256;
    const other = await createPgTarget();
    cleanups.push(other.drop);
    await ok("POST", "/v1/instances/pipe-test:sync", {});
    const otherName = `instances/pipe-test/databases/${other.name}`;
    await eventually(async () => (await call("GET", `/v1/${otherName}`)).syncState === "OK");
    await ok("POST", "/v1/databases:transfer", { databases: [otherName], targetProject: "projects/pipeline" });

    const plan = await ok("POST", `/v1/${release.name}:createPlan`, { targets: [targets.test, otherName] });
    // Recorded meanwhile (applied by hand): the same checksum on one target, another on the other.
    await ok("POST", `/v1/${targets.test}/revisions`, { version: "2.0", sha256 });
    await ok("POST", `/v1/${otherName}/revisions`, { version: "2.0", sha256: "0".repeat(64) });
    const issue = await settledIssue((await ok("POST", "/v1/projects/pipeline/issues", { plan: plan.name })).name);
    const ended = await rolloutWhen(issue.rollout, (r) => (r.tasks as Json[]).every((t) => ["SKIPPED", "FAILED", "DONE"].includes(t.state)));
    const byTarget = new Map((ended.tasks as Json[]).map((t) => [t.target, t]));
    assert.deepEqual([byTarget.get(targets.test)!.state, byTarget.get(targets.test)!.skippedReason], ["SKIPPED", "already applied (version 2.0)"]);
    const refused = byTarget.get(otherName)!;
    assert.equal(refused.state, "FAILED");
    assert.match((await ok("GET", `/v1/${refused.latestTaskRun}`)).error, /version 2.0 was applied with a different checksum/);
    await assert.rejects(pgQuery.test("select 1 from ledger"), /does not exist/);
    await assert.rejects(other.query("select 1 from ledger"), /does not exist/);
  });
});
