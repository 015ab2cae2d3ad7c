// Approval of issues (contract §7.3, §11.2, §11.3, §11.4) with the real
// worker and real PostgreSQL targets: the WORKSPACE_APPROVAL rule that
// matches a change selects its steps once the plan's checks have finished;
// a holder of the step's role approves (at project or workspace scope,
// groups included), others are refused naming the roles, the creator only
// where self-approval is allowed; concurrent approvals of one step count
// once; reject, review again, and a spec edit start over; approval granted
// creates the rollout.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { Issue_ApprovalStatus, IssueService } from "../shared/gen/svc/v1/issue_service_pb.js";
import { createMetrics } from "../shared/platform/metrics.ts";
import { WORKSPACE_APPROVAL_DEFAULTS } from "../shared/governance/settings/setting-defaults.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { createInstanceOk, createPgTarget, eventually, pgAdminSource, testSecrets } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restAs, restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;

const USERS = ["dev", "viewer", "owner2", "dba", "dual", "releaser", "outsider", "g1", "g2", "g3", "g4", "g5"] as const;
type User = (typeof USERS)[number] | "admin";

describe("issue approval", () => {
  let app: TestApp;
  let worker: Worker;
  let rest: ReturnType<typeof restClient>;
  const token: Partial<Record<User, string>> = {};
  const cleanups: (() => Promise<unknown>)[] = [];
  const db = { test: "", prod: "" };
  const { call } = restAs<User>(() => rest, token, "admin");
  const sql = (text: string) => adminQuery(text, app.database.url);
  const connect = () => createClient(IssueService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
  const as = (user: User) => ({ headers: { authorization: `Bearer ${token[user]}` } });

  /** An issue for a new plan of `statement` on the targets, once its approval is past CHECKING. */
  const issueFor = async (statement: string, targets: string[], creator: User = "admin") => {
    const plan = await call("POST", "/v1/projects/appr/plans", { title: statement.slice(0, 40), specs: [{ changeDatabaseConfig: { targets, statement } }] }, creator);
    assert.equal(plan.httpStatus, 200, JSON.stringify(plan));
    const issue = await call("POST", "/v1/projects/appr/issues", { plan: plan.name }, creator);
    assert.equal(issue.httpStatus, 200, JSON.stringify(issue));
    return settled(issue.name);
  };
  const settled = async (name: string) => {
    let issue: Json = {};
    await eventually(async () => (issue = await call("GET", `/v1/${name}`)).approvalStatus !== "CHECKING", 60_000);
    return issue;
  };
  const approve = (issue: Json, user: User, comment = "") => call("POST", `/v1/${issue.name}:approve`, { comment }, user);
  const setRules = async (rules: unknown) => {
    const reply = await call("PATCH", "/v1/settings/WORKSPACE_APPROVAL?updateMask=workspaceApproval.rules", { value: { workspaceApproval: { rules } } });
    assert.equal(reply.httpStatus, 200, JSON.stringify(reply));
  };
  const rule = (expression: string, steps: string[][]) => ({
    source: "CHANGE_DATABASE",
    condition: { expression },
    template: { title: expression, steps: steps.map((roles) => ({ roles: roles.map((r) => `roles/${r}`) })) },
  });

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    worker = await startWorker({ url: app.database.url, db: app.db, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: false, externalUrl: undefined });
    for (const user of USERS) await makeUser(app.db, user);
    token.admin = await signInFirstAdmin(rest);
    for (const user of USERS) token[user] = await signIn(rest, user);
    assert.equal((await call("POST", "/v1/projects?projectId=appr", {})).httpStatus, 200);
    const group = await call("POST", "/v1/groups?groupId=approvers", { title: "Approvers", members: ["g1", "g2", "g3", "g4", "g5"].map((u) => ({ member: `user:login_id=${u}` })) });
    assert.equal(group.httpStatus, 200, JSON.stringify(group));
    const bind = (role: string, ...members: string[]) => ({ role: `roles/${role}`, members });
    const user = (id: string) => `user:login_id=${id}`;
    const project = await call("POST", "/v1/projects/appr:setIamPolicy", {
      policy: {
        bindings: [
          bind("projectOwner", user("admin"), user("owner2"), user("dual"), "group:approvers"),
          bind("projectDeveloper", user("dev")),
          bind("projectViewer", user("viewer")),
          bind("projectReleaser", user("releaser")),
        ],
      },
    });
    assert.equal(project.httpStatus, 200, JSON.stringify(project));
    const workspace = await call("GET", "/v1/workspaces/-:getIamPolicy");
    const extended = [...workspace.bindings, bind("workspaceDBA", user("dba"), user("dual"))];
    assert.equal((await call("POST", "/v1/workspaces/-:setIamPolicy", { policy: { bindings: extended, etag: workspace.etag } })).httpStatus, 200);

    const targets = await Promise.all([
      createPgTarget(["create table big (id integer primary key, v integer)", "insert into big select n, 0 from generate_series(1, 500) n", "analyze big", "create table victim (id int)"]),
      createPgTarget(["create table victim (id int)"]),
    ]);
    for (const target of targets) cleanups.push(target.drop);
    await createInstanceOk(rest, token.admin!, "pg-appr", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    db.test = `instances/pg-appr/databases/${targets[0].name}`;
    db.prod = `instances/pg-appr/databases/${targets[1].name}`;
    for (const name of [db.test, db.prod]) await eventually(async () => (await call("GET", `/v1/${name}`)).syncState === "OK");
    assert.ok((await call("POST", "/v1/databases:transfer", { databases: [db.test, db.prod], targetProject: "projects/appr" })).databases);
    assert.equal((await call("PATCH", `/v1/${db.prod}?updateMask=environment`, { environment: "environments/prod" })).environment, "environments/prod");
  });
  after(async () => {
    await worker.stop();
    await app.close();
    for (const cleanup of cleanups) await cleanup();
  });

  it("by default, a prod change waits for a project owner and a test-only change is SKIPPED with its rollout", async () => {
    const prod = await issueFor("create table a1 (id int primary key);", [db.prod]);
    assert.equal(prod.approvalStatus, "PENDING", JSON.stringify(prod));
    assert.deepEqual(prod.approvalTemplate.steps, [{ roles: ["roles/projectOwner"] }]);
    assert.equal(prod.currentStep ?? 0, 0);
    assert.equal(prod.rollout, undefined);
    const both = await issueFor("create table a2 (id int primary key);", [db.test, db.prod]);
    assert.equal(both.approvalStatus, "PENDING", "the strictest template of the targets wins");

    const test = await issueFor("create table a3 (id int primary key);", [db.test]);
    assert.equal(test.approvalStatus, "SKIPPED", JSON.stringify(test));
    assert.equal(test.approvalTemplate, undefined);
    assert.match(test.rollout ?? "", /^projects\/appr\/rollouts\/\d+$/);
    const plan = await call("GET", `/v1/${test.plan}`);
    assert.deepEqual([plan.issue, plan.rollout], [test.name, test.rollout]);
    const rollout = await call("GET", `/v1/${test.rollout}`);
    assert.equal(rollout.issue, test.name, JSON.stringify(rollout));
    const edit = await call("PATCH", `/v1/${test.plan}?updateMask=title`, { title: "too late" });
    assert.equal(edit.code, "failed_precondition");
    assert.match(edit.message, /has a rollout/);
  });

  it("lets a holder of the step's role approve; refuses other roles naming them, and the creator while self-approval is off", async () => {
    const issue = await issueFor("create table b1 (id int primary key);", [db.prod]);
    const waiting = async (user: User) => ((await call("GET", `/v1/issues?filter=${encodeURIComponent("approver:me")}`, undefined, user)).issues ?? []).map((i: Json) => i.name);
    assert.ok((await waiting("owner2")).includes(issue.name));
    assert.ok((await waiting("dba")).length === 0 && !(await waiting("dev")).includes(issue.name));

    const byDev = await approve(issue, "dev");
    assert.deepEqual([byDev.code, byDev.message], ["permission_denied", `step 0 of the approval of "${issue.name}" needs one of the roles roles/projectOwner`]);
    const byDba = await approve(issue, "dba");
    assert.equal(byDba.code, "permission_denied", "a workspace DBA does not hold the step's role");
    const byCreator = await approve(issue, "admin");
    assert.deepEqual([byCreator.code, byCreator.message], ["permission_denied", "self-approval is not allowed in this project"]);
    assert.equal((await approve(issue, "outsider")).code, "not_found");

    const approved = await connect().approveIssue({ name: issue.name, comment: "ship it" }, as("owner2"));
    assert.equal(approved.approvalStatus, Issue_ApprovalStatus.APPROVED);
    assert.deepEqual(approved.approvers.map((a) => [a.principal, a.step, a.comment]), [["users/owner2", 0, "ship it"]]);
    assert.match(approved.rollout, /^projects\/appr\/rollouts\/\d+$/);
    assert.equal((await call("GET", `/v1/${approved.rollout}`)).plan, issue.plan);
    const again = await approve(issue, "g1");
    assert.deepEqual([again.code, again.message], ["failed_precondition", `the approval of issue "${issue.name}" is APPROVED, not PENDING`]);

    const audit = await sql(`select action, actor, status_code from audit_log where resource = '${issue.name}' and action = 'bb.issue.approve' order by id`);
    assert.deepEqual(audit.rows.map((r) => [r.actor, r.status_code]), [
      ["users/dev", "permission_denied"], ["users/dba", "permission_denied"], ["users/admin", "permission_denied"], ["users/outsider", "not_found"],
      ["users/owner2", "ok"], ["users/g1", "failed_precondition"],
    ]);
    const history = (await call("GET", `/v1/${issue.name}/comments`)).issueComments.map((c: Json) => [c.event?.kind, c.creator, c.comment]);
    assert.deepEqual(history[0], ["APPROVED", "users/owner2", "ship it"]);
    const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
    assert.match(metrics, /svc_issue_approval_duration_seconds_count [1-9]/);
  });

  it("lets the creator approve where the project allows self-approval", async () => {
    assert.equal((await call("PATCH", "/v1/projects/appr?updateMask=allowSelfApproval", { allowSelfApproval: true })).allowSelfApproval, true);
    try {
      const issue = await issueFor("create table c1 (id int primary key);", [db.prod]);
      assert.equal((await approve(issue, "admin")).approvalStatus, "APPROVED");
    } finally {
      await call("PATCH", "/v1/projects/appr?updateMask=allowSelfApproval", { allowSelfApproval: false });
    }
  });

  it("counts one of several concurrent approvals of one step (group members hold the role); the others are told it is approved", async () => {
    await setRules([rule("true", [["projectOwner"], ["projectOwner"]])]);
    try {
      const issue = await issueFor("create table d1 (id int primary key);", [db.prod]);
      const planId = issue.plan.split("/").pop();
      // Holding the plan's row makes every approval read the issue first, then wait for the lock.
      const holder = new pg.Client({ connectionString: app.database.url });
      await holder.connect();
      await holder.query(`begin; select 1 from plan where project_id = 'appr' and id = '${planId}' for update`);
      const voters: User[] = ["g1", "g2"]; // the test app's pool has 5 connections, which the worker shares
      const pending = voters.map((user) => connect().approveIssue({ name: issue.name }, as(user)).then(() => "ok", (e: unknown) => ConnectError.from(e)));
      const waiting = `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
      await eventually(async () => (await holder.query(waiting)).rows[0].n === voters.length);
      await holder.query("commit");
      await holder.end();
      const outcomes = await Promise.all(pending);
      assert.equal(outcomes.filter((o) => o === "ok").length, 1, String(outcomes));
      for (const outcome of outcomes.filter((o) => o !== "ok")) {
        assert.deepEqual([(outcome as ConnectError).code, (outcome as ConnectError).rawMessage], [Code.FailedPrecondition, `step 0 of the approval of "${issue.name}" is already approved`]);
      }
      const after = await call("GET", `/v1/${issue.name}`);
      assert.deepEqual([after.approvalStatus, after.currentStep, after.approvers.length], ["PENDING", 1, 1]);
    } finally {
      await setRules(WORKSPACE_APPROVAL_DEFAULTS.rules);
    }
  });

  it("rejects, refuses approval while rejected, and asks for review again from the first step", async () => {
    const issue = await issueFor("create table e1 (id int primary key);", [db.prod]);
    const rejected = await call("POST", `/v1/${issue.name}:reject`, { comment: "use bigint" }, "owner2");
    assert.equal(rejected.approvalStatus, "REJECTED", JSON.stringify(rejected));
    assert.deepEqual(rejected.approvers.map((a: Json) => [a.status, a.principal, a.comment]), [["REJECTED", "users/owner2", "use bigint"]]);
    assert.equal((await call("POST", `/v1/${issue.name}:reject`, {}, "dev")).code, "failed_precondition");
    assert.equal((await approve(issue, "g1")).code, "failed_precondition");

    const byViewer = await call("POST", `/v1/${issue.name}:requestReview`, {}, "viewer");
    assert.deepEqual([byViewer.code, byViewer.message], ["permission_denied", "permission bb.issues.update required on projects/appr"]);
    const again = await call("POST", `/v1/${issue.name}:requestReview`, { comment: "changed to bigint" });
    assert.deepEqual([again.approvalStatus, again.approvers, again.currentStep], ["PENDING", undefined, undefined]);
    assert.equal((await call("POST", `/v1/${issue.name}:requestReview`, {})).code, "failed_precondition");
    assert.equal((await approve(issue, "owner2")).approvalStatus, "APPROVED", "the rejecter may approve the new round");

    const kinds = (await call("GET", `/v1/${issue.name}/comments`)).issueComments.map((c: Json) => c.event?.kind);
    assert.deepEqual(kinds.slice(0, 3), ["REJECTED", "REVIEW_REQUESTED", "APPROVED"]);
    const audit = await sql(`select actor from audit_log where resource = '${issue.name}' and action = 'bb.issue.reject' and status_code = 'ok'`);
    assert.deepEqual(audit.rows.map((r) => r.actor), ["users/owner2"]);
  });

  it("cancels the rollout not started of an issue it cancels", async () => {
    const issue = await issueFor("create table g1 (id int primary key);", [db.prod]);
    const approved = await approve(issue, "owner2");
    assert.equal((await call("GET", `/v1/${approved.rollout}`)).state, "NOT_STARTED", "prod waits for advance");
    const canceled = await call("POST", "/v1/projects/appr/issues:batchUpdateStatus", { issues: [issue.name], status: "CANCELED", reason: "wrong window" });
    assert.equal(canceled.issues?.[0]?.status, "CANCELED", JSON.stringify(canceled));
    assert.equal((await call("GET", `/v1/${approved.rollout}`)).state, "CANCELED");
    const again = await call("POST", "/v1/projects/appr/issues", { plan: issue.plan });
    assert.equal(again.code, "failed_precondition", "a plan with a rollout gets no new issue");
  });

  it("follows custom rules over sql_type and affected_rows; steps in order, one step per person; spec edits start over", async () => {
    await setRules([
      rule('statement.sql_type == "DROP_TABLE"', [["projectOwner"], ["workspaceDBA"]]),
      rule('statement.affected_rows > 100 && plan_check.max_level != "ERROR"', [["projectReleaser"]]),
      rule("true", []),
    ]);
    try {
      const update = await issueFor("update big set v = v + 1 where id > 0;", [db.test]);
      assert.deepEqual([update.approvalStatus, update.approvalTemplate.steps], ["PENDING", [{ roles: ["roles/projectReleaser"] }]]);
      assert.equal((await approve(update, "releaser")).approvalStatus, "APPROVED");
      const create = await issueFor("create table f1 (id int primary key);", [db.test]);
      assert.deepEqual([create.approvalStatus, create.approvalTemplate?.steps], ["SKIPPED", undefined]);
      const mixed = await issueFor("create table f2 (id int primary key);\ndrop table victim;", [db.prod]);
      assert.equal(mixed.approvalTemplate.steps.length, 2, "a script is judged by every SQL type it has");

      const drop = await issueFor("drop table victim;", [db.test]);
      assert.equal(drop.approvalStatus, "PENDING");
      const first = await approve(drop, "dual");
      assert.deepEqual([first.approvalStatus, first.currentStep], ["PENDING", 1]);
      const twice = await approve(drop, "dual");
      assert.deepEqual([twice.code, twice.message], ["permission_denied", `users/dual already approved step 0 of "${drop.name}"; one person approves at most one step`]);
      const owner = await approve(drop, "owner2");
      assert.deepEqual([owner.code, owner.message], ["permission_denied", `step 1 of the approval of "${drop.name}" needs one of the roles roles/workspaceDBA`]);

      const edited = await call("PATCH", `/v1/${drop.plan}?updateMask=specs`, { specs: [{ changeDatabaseConfig: { targets: [db.test], statement: "drop table victim;\n" } }] });
      assert.equal(edited.httpStatus, 200, JSON.stringify(edited));
      const reset = await call("GET", `/v1/${drop.name}`);
      assert.deepEqual([reset.approvalStatus, reset.approvers, reset.currentStep], ["CHECKING", undefined, undefined]);
      const pending = await settled(drop.name);
      assert.deepEqual([pending.approvalStatus, pending.currentStep, pending.approvers], ["PENDING", undefined, undefined]);
      assert.equal((await approve(pending, "owner2")).currentStep, 1);
      const done = await approve(pending, "dba");
      assert.equal(done.approvalStatus, "APPROVED", JSON.stringify(done));
      assert.deepEqual(done.approvers.map((a: Json) => [a.principal, a.step ?? 0]), [["users/owner2", 0], ["users/dba", 1]]);
      assert.ok(done.rollout);
    } finally {
      await setRules(WORKSPACE_APPROVAL_DEFAULTS.rules);
    }
  });
});
