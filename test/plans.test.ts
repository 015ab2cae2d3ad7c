// Plans (contract §10.1) and the bookkeeping of their check runs (§10.2):
// targets must be databases of the plan's project, the state is the
// server's, edits of specs start a new run that supersedes the running one,
// and a retried create with the same request id answers the first plan.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Spec = { id?: string; changeDatabaseConfig?: { targets?: string[]; statement?: string; type?: string } };
type Plan = { name: string; title?: string; description?: string; specs?: Spec[]; state?: string; creator?: string; etag?: string; planCheckRunStatusCount?: Record<string, number> };
type Run = { name: string; status?: string; error?: string };
type Reply = Plan & { code?: string; message?: string; plans?: Plan[]; nextPageToken?: string; planCheckRuns?: Run[] } & Partial<Run>;

const APP_DB = "instances/pg-one/databases/app";
const OTHER_DB = "instances/pg-one/databases/other";
const spec = (statement: string, targets = [APP_DB]): Spec => ({ changeDatabaseConfig: { targets, statement } });

describe("plans", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token = { admin: "", dev: "", viewer: "" };
  const call = (method: string, path: string, body?: unknown, as = token.admin) => rest<Reply>(method, path, { token: as, body });
  const sql = (text: string) => adminQuery(text, app.database.url);
  const createPlan = async (plan: Partial<Plan>, as = token.admin, query = "") => {
    const reply = await call("POST", `/v1/projects/alpha/plans${query}`, plan, as);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };
  const runsOf = async (plan: string) => (await call("GET", `/v1/${plan}/planCheckRuns`)).body.planCheckRuns ?? [];

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    await makeUser(app.db, "dev");
    await makeUser(app.db, "viewer");
    token.admin = await signInFirstAdmin(rest);
    token.dev = await signIn(rest, "dev");
    token.viewer = await signIn(rest, "viewer");
    for (const id of ["alpha", "beta"]) assert.equal((await call("POST", `/v1/projects?projectId=${id}`, {})).status, 200);
    await call("POST", "/v1/projects/alpha:setIamPolicy", {
      policy: { bindings: [
        { role: "roles/projectOwner", members: ["user:login_id=admin"] },
        { role: "roles/projectDeveloper", members: ["user:login_id=dev"] },
        { role: "roles/projectViewer", members: ["user:login_id=viewer"] },
      ] },
    });
    await sql(`insert into instance (id, engine, environment) values ('pg-one', 'POSTGRES', 'test');
               insert into instance_database (instance_id, name, project_id) values ('pg-one', 'app', 'alpha'), ('pg-one', 'other', 'beta')`);
  });
  after(() => app.close());

  it("creates a plan with a generated spec id, MIGRATE by default, starts a check run, and audits it", async () => {
    const plan = await createPlan({ title: "Add table", specs: [spec("create table t (id int primary key);")] });
    assert.match(plan.name, /^projects\/alpha\/plans\/\d+$/);
    assert.deepEqual([plan.state, plan.creator, plan.specs?.[0]?.changeDatabaseConfig?.type], ["ACTIVE", "users/admin", "MIGRATE"]);
    assert.match(plan.specs?.[0]?.id ?? "", /^[0-9a-f-]{36}$/);
    const runs = await runsOf(plan.name);
    assert.deepEqual(runs.map((r) => r.status), ["RUNNING"]);
    const jobs = await sql(`select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'plan.check'`);
    assert.ok(jobs.rows.some((j) => j.payload.runId === Number(runs[0]!.name.split("/").pop())));
    const audit = await sql(`select action from audit_log where resource = '${plan.name}'`);
    assert.deepEqual(audit.rows.map((r) => r.action), ["bb.plans.create"]);
  });

  it("refuses targets outside the project, unknown targets, oversized statements and bad names, naming them", async () => {
    const cases: [Partial<Plan>, RegExp][] = [
      [{ specs: [spec("select 1", [OTHER_DB])] }, /target instances\/pg-one\/databases\/other belongs to projects\/beta, not to projects\/alpha/],
      [{ specs: [spec("select 1", ["instances/pg-one/databases/nope"])] }, /target instances\/pg-one\/databases\/nope is not an active database/],
      [{ specs: [spec("x".repeat(2 * 1024 * 1024 + 1))] }, /plan\.specs\[0\]\.change_database_config\.statement: too long: 2097153 bytes, at most 2097152 accepted/],
      [{ specs: [spec("select 1", ["databases/app"])] }, /plan\.specs\[0\]\.change_database_config\.targets\[0\]/],
      [{ specs: [] }, /plan\.specs: a plan needs at least one spec/],
      [{ specs: [{ id: "a", ...spec("select 1") }, { id: "a", ...spec("select 2") }] }, /plan\.specs\[1\]\.id: "a" is used by another spec/],
    ];
    for (const [body, message] of cases) {
      const reply = await call("POST", "/v1/projects/alpha/plans", body);
      assert.equal(reply.body.code, "invalid_argument", JSON.stringify(reply.body));
      assert.match(reply.body.message ?? "", message);
    }
  });

  it("answers a retried create with the same request id with the first plan", async () => {
    const requestId = randomUUID();
    const [a, b] = await Promise.all([
      createPlan({ title: "once", specs: [spec("select 1")] }, token.admin, `?requestId=${requestId}`),
      createPlan({ title: "once", specs: [spec("select 1")] }, token.admin, `?requestId=${requestId}`),
    ]);
    assert.equal(a.name, b.name);
    const byOther = await createPlan({ title: "once", specs: [spec("select 1")] }, token.dev, `?requestId=${requestId}`);
    assert.notEqual(byOther.name, a.name);
    assert.equal((await call("POST", "/v1/projects/alpha/plans?requestId=not-a-uuid", { specs: [spec("select 1")] })).body.code, "invalid_argument");
  });

  it("lets a request id used more than 24 hours ago create a new plan, and frees it on the old one", async () => {
    const requestId = randomUUID();
    const first = await createPlan({ title: "yesterday", specs: [spec("select 1")] }, token.admin, `?requestId=${requestId}`);
    const id = first.name.split("/").pop();
    await sql(`update plan set create_time = now() - interval '25 hours' where project_id = 'alpha' and id = '${id}'`);
    const second = await createPlan({ title: "today", specs: [spec("select 1")] }, token.admin, `?requestId=${requestId}`);
    assert.notEqual(second.name, first.name);
    assert.equal(second.title, "today");
    const kept = await sql(`select id, request_id from plan where request_id = '${requestId}'`);
    assert.deepEqual(kept.rows.map((r) => r.id), [second.name.split("/").pop()]);
  });

  it("refuses a PATCH of the state, and lets the creator edit specs, which supersedes the running check run", async () => {
    const plan = await createPlan({ title: "Dev's plan", specs: [spec("select 1")] }, token.dev);
    const state = await call("PATCH", `/v1/${plan.name}?updateMask=state`, { state: "DELETED" }, token.dev);
    assert.deepEqual([state.body.code, state.body.message], ["invalid_argument", "update_mask: state is managed by the server"]);
    const [firstRun] = await runsOf(plan.name);
    const edited = await call("PATCH", `/v1/${plan.name}?updateMask=specs,title`, { title: "Edited", specs: [spec("select 2")], etag: plan.etag }, token.dev);
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.specs?.[0]?.changeDatabaseConfig?.statement, "select 2");
    const runs = await runsOf(plan.name);
    assert.deepEqual(runs.map((r) => r.status), ["RUNNING", "CANCELED"]);
    assert.equal(runs[1]!.name, firstRun!.name);
    assert.equal(runs[1]!.error, "superseded by a newer run");
    const stale = await call("PATCH", `/v1/${plan.name}?updateMask=title`, { title: "again", etag: plan.etag }, token.dev);
    assert.equal(stale.body.code, "aborted");
    const byViewer = await call("PATCH", `/v1/${plan.name}?updateMask=title`, { title: "mine" }, token.viewer);
    assert.deepEqual([byViewer.status, byViewer.body.message], [403, "permission bb.plans.update required on projects/alpha"]);
  });

  it("runs checks on demand, cancels a running run once, and lists the latest run", async () => {
    const plan = await createPlan({ specs: [spec("select 1")] });
    const run = await call("POST", `/v1/${plan.name}:runPlanChecks`, {});
    assert.equal(run.body.status, "RUNNING");
    const canceled = await call("POST", `/v1/${run.body.name}:cancel`, {});
    assert.deepEqual([canceled.body.status, canceled.body.error], ["CANCELED", "canceled by users/admin"]);
    assert.equal((await call("POST", `/v1/${run.body.name}:cancel`, {})).body.code, "failed_precondition");
    const latest = await call("GET", `/v1/${plan.name}/planCheckRuns?latestOnly=true`);
    assert.deepEqual(latest.body.planCheckRuns?.map((r) => r.name), [run.body.name]);
    assert.equal((await call("GET", `/v1/${plan.name}/planCheckRuns/999999`)).body.code, "not_found");
    const malformed = await call("GET", `/v1/${plan.name}/planCheckRuns/latest`);
    assert.deepEqual([malformed.body.code, malformed.body.message], [
      "invalid_argument", `name: "${plan.name}/planCheckRuns/latest" is not a valid plan check run name; use projects/<p>/plans/<plan_id>/planCheckRuns/<run_id>`,
    ]);
    assert.equal((await call("POST", `/v1/${plan.name}:runPlanChecks`, {}, token.viewer)).body.code, "permission_denied");
  });

  it("starts concurrent runs of one plan one after the other: each supersedes the last, one stays RUNNING", async () => {
    const plan = await createPlan({ specs: [spec("select 1")] });
    const replies = await Promise.all(Array.from({ length: 10 }, () => call("POST", `/v1/${plan.name}:runPlanChecks`, {})));
    assert.deepEqual(replies.map((r) => r.status), Array(10).fill(200), JSON.stringify(replies.map((r) => r.body)));
    const runs = await runsOf(plan.name);
    assert.equal(runs.length, 11);
    assert.deepEqual(runs.map((r) => r.status), ["RUNNING", ...Array(10).fill("CANCELED")]);
  });

  it("lists plans newest first with creator:me and title filters, and hides deleted plans", async () => {
    const mine = await createPlan({ title: "Listed by dev", specs: [spec("select 1")] }, token.dev);
    const gone = await createPlan({ title: "Listed then deleted", specs: [spec("select 1")] });
    assert.equal((await call("DELETE", `/v1/${gone.name}`)).status, 200);
    assert.equal((await call("GET", `/v1/${gone.name}`)).body.state, "DELETED");
    const byDev = await call("GET", `/v1/projects/alpha/plans?filter=${encodeURIComponent("creator:me")}`, undefined, token.dev);
    assert.ok(byDev.body.plans?.every((p) => p.creator === "users/dev"));
    assert.equal(byDev.body.plans?.[0]?.name, mine.name);
    const titled = await call("GET", `/v1/projects/alpha/plans?filter=${encodeURIComponent('title:"listed"')}`);
    assert.deepEqual(titled.body.plans?.map((p) => p.name), [mine.name]);
    const withDeleted = await call("GET", `/v1/projects/alpha/plans?showDeleted=true&filter=${encodeURIComponent('title:"listed"')}`);
    assert.deepEqual(withDeleted.body.plans?.map((p) => p.name), [gone.name, mine.name]);
    assert.equal((await call("DELETE", `/v1/${gone.name}`)).body.code, "not_found");
  });
});
