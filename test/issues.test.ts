// Issues (contract §11.1): opened from a plan (one OPEN or DONE issue per
// plan, idempotent by request id), read over REST and Connect, edited by
// mask and etag, listed per project and across the workspace (narrowed to
// the projects the caller may list), cancelled and reopened, and commented.
// No worker runs here: the plans' checks stay RUNNING, so approval stays
// CHECKING (test/approval.test.ts covers approval).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { Issue_Status, IssueService } from "../shared/gen/svc/v1/issue_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;

const ALPHA_DB = "instances/pg-issues/databases/app";
const BETA_DB = "instances/pg-issues/databases/other";

describe("issues", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token = { admin: "", dev: "", viewer: "", outsider: "", betaDev: "" };
  const call = async (method: string, path: string, body?: unknown, as = token.admin) => {
    const reply = await rest<Json>(method, path, { token: as, body });
    return { ...reply.body, httpStatus: reply.status } as Json;
  };
  const sql = (text: string) => adminQuery(text, app.database.url);
  const newPlan = async (project = "alpha", title = "Add table", as = token.admin) => {
    const plan = await call("POST", `/v1/projects/${project}/plans`, { title, specs: [{ changeDatabaseConfig: { targets: [project === "alpha" ? ALPHA_DB : BETA_DB], statement: "select 1" } }] }, as);
    assert.equal(plan.httpStatus, 200, JSON.stringify(plan));
    return plan.name as string;
  };
  const newIssue = async (issue: Json, project = "alpha", as = token.admin, query = "") => {
    const reply = await call("POST", `/v1/projects/${project}/issues${query}`, issue, as);
    assert.equal(reply.httpStatus, 200, JSON.stringify(reply));
    return reply;
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    for (const loginId of ["dev", "viewer", "outsider", "beta-dev"]) await makeUser(app.db, loginId);
    token.admin = await signInFirstAdmin(rest);
    for (const id of ["alpha", "beta"]) assert.equal((await call("POST", `/v1/projects?projectId=${id}`, {})).httpStatus, 200);
    const bind = (role: string, loginId: string) => ({ role: `roles/${role}`, members: [`user:login_id=${loginId}`] });
    await call("POST", "/v1/projects/alpha:setIamPolicy", {
      policy: { bindings: [bind("projectOwner", "admin"), bind("projectDeveloper", "dev"), bind("projectViewer", "viewer")] },
    });
    await call("POST", "/v1/projects/beta:setIamPolicy", { policy: { bindings: [bind("projectOwner", "admin"), bind("projectDeveloper", "beta-dev")] } });
    // Only project bindings count for these users: no workspace-wide issue listing.
    await sql(`update iam_policy set bindings = '[{"role":"roles/workspaceAdmin","members":["user:login_id=admin"]}]' where scope = 'workspaces/-'`);
    await sql(`insert into instance (id, engine, environment) values ('pg-issues', 'POSTGRES', 'prod');
               insert into instance_database (instance_id, name, project_id) values ('pg-issues', 'app', 'alpha'), ('pg-issues', 'other', 'beta')`);
    token.dev = await signIn(rest, "dev");
    token.viewer = await signIn(rest, "viewer");
    token.outsider = await signIn(rest, "outsider");
    token.betaDev = await signIn(rest, "beta-dev");
  });
  after(() => app.close());

  it("opens an issue from a plan, titled like the plan, CHECKING while its checks run, and audits it", async () => {
    const plan = await newPlan("alpha", "Add the orders table");
    const issue = await newIssue({ plan, description: "please", labels: ["schema", "schema", " urgent "] }, "alpha", token.dev);
    assert.match(issue.name, /^projects\/alpha\/issues\/[1-9][0-9]*$/);
    assert.deepEqual(
      [issue.title, issue.description, issue.type, issue.status, issue.approvalStatus, issue.plan, issue.creator, issue.labels, issue.rollout],
      ["Add the orders table", "please", "DATABASE_CHANGE", "OPEN", "CHECKING", plan, "users/dev", ["schema", "urgent"], undefined],
    );
    assert.equal((await call("GET", `/v1/${issue.name}`)).etag, issue.etag);
    assert.equal((await call("GET", `/v1/${plan}`)).issue, issue.name);
    const audit = await sql(`select action, actor from audit_log where resource = '${issue.name}'`);
    assert.deepEqual(audit.rows, [{ action: "bb.issues.create", actor: "users/dev" }]);

    const connect = createClient(IssueService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const headers = { authorization: `Bearer ${token.viewer}` };
    const read = await connect.getIssue({ name: issue.name }, { headers });
    assert.deepEqual([read.title, read.plan, read.labels], ["Add the orders table", plan, ["schema", "urgent"]]);
    const refused = await connect.getIssue({ name: issue.name }, { headers: { authorization: `Bearer ${token.outsider}` } }).catch((e: unknown) => ConnectError.from(e));
    assert.equal((refused as ConnectError).code, Code.NotFound);
  });

  it("keeps one OPEN or DONE issue per plan, and refuses plans of other projects, deleted or missing plans", async () => {
    const plan = await newPlan();
    const first = await newIssue({ plan });
    const second = await call("POST", "/v1/projects/alpha/issues", { plan });
    assert.deepEqual([second.code, second.message], ["already_exists", `plan "${plan}" already has issue "${first.name}" (OPEN)`]);
    const betaPlan = await newPlan("beta");
    const foreign = await call("POST", "/v1/projects/alpha/issues", { plan: betaPlan });
    assert.deepEqual([foreign.code, foreign.message], ["invalid_argument", `issue.plan: "${betaPlan}" is not a plan of projects/alpha`]);
    const gone = await newPlan();
    assert.equal((await call("DELETE", `/v1/${gone}`)).httpStatus, 200);
    assert.deepEqual([(await call("POST", "/v1/projects/alpha/issues", { plan: gone })).code], ["failed_precondition"]);
    assert.equal((await call("POST", "/v1/projects/alpha/issues", { plan: "projects/alpha/plans/999999" })).code, "not_found");
    assert.equal((await call("POST", "/v1/projects/alpha/issues", {})).code, "invalid_argument");
    assert.equal((await call("POST", "/v1/projects/alpha/issues", { plan: await newPlan() }, token.viewer)).code, "permission_denied");
  });

  it("answers concurrent creates with one request id with the first issue", async () => {
    const plan = await newPlan();
    const requestId = randomUUID();
    const replies = await Promise.all([1, 2, 3].map(() => newIssue({ plan }, "alpha", token.admin, `?requestId=${requestId}`)));
    assert.equal(new Set(replies.map((r) => r.name)).size, 1);
    assert.equal((await call("POST", `/v1/projects/alpha/issues?requestId=not-a-uuid`, { plan })).code, "invalid_argument");
  });

  it("edits title, description and labels by mask: the creator or bb.issues.update, stale etags refused", async () => {
    const issue = await newIssue({ plan: await newPlan(), title: "Before" }, "alpha", token.dev);
    const edited = await call("PATCH", `/v1/${issue.name}?updateMask=title,labels`, { title: "After", labels: ["b", "a"], description: "ignored", etag: issue.etag }, token.dev);
    assert.equal(edited.httpStatus, 200, JSON.stringify(edited));
    assert.deepEqual([edited.title, edited.labels, edited.description], ["After", ["b", "a"], undefined]);
    assert.notEqual(edited.etag, issue.etag);
    assert.equal((await call("PATCH", `/v1/${issue.name}?updateMask=title`, { title: "Again", etag: issue.etag }, token.dev)).code, "aborted");
    const outputOnly = await call("PATCH", `/v1/${issue.name}?updateMask=status`, { status: "DONE" });
    assert.deepEqual([outputOnly.code, outputOnly.message], ["invalid_argument", "update_mask: field status is output only"]);
    assert.equal((await call("PATCH", `/v1/${issue.name}`, { title: "x" })).code, "invalid_argument");
    const byViewer = await call("PATCH", `/v1/${issue.name}?updateMask=title`, { title: "mine" }, token.viewer);
    assert.deepEqual([byViewer.httpStatus, byViewer.message], [403, "permission bb.issues.update required on projects/alpha"]);
    const byOwner = await call("PATCH", `/v1/${issue.name}?updateMask=description`, { description: "by the owner" });
    assert.equal(byOwner.description, "by the owner");
    const audit = await sql(`select count(*)::int as n from audit_log where resource = '${issue.name}' and action = 'bb.issues.update' and status_code = 'ok'`);
    assert.equal(audit.rows[0].n, 2);
  });

  it("lists per project and across the workspace, only where the caller may list, with filters and pages", async () => {
    const mine = await newIssue({ plan: await newPlan(), title: "Listed by dev", labels: ["listed"] }, "alpha", token.dev);
    const beta = await newIssue({ plan: await newPlan("beta", "beta plan", token.betaDev) }, "beta", token.betaDev);
    const names = (reply: Json) => (reply.issues ?? []).map((i: Json) => i.name);
    const byDev = await call("GET", `/v1/issues?filter=${encodeURIComponent("creator:me")}`, undefined, token.dev);
    assert.ok(byDev.issues.length >= 1 && byDev.issues.every((i: Json) => i.creator === "users/dev"), JSON.stringify(byDev));
    assert.equal(byDev.issues[0].name, mine.name);
    const devAll = names(await call("GET", "/v1/issues", undefined, token.dev));
    assert.ok(devAll.includes(mine.name) && !devAll.includes(beta.name), "dev lists alpha's issues only");
    assert.deepEqual(names(await call("GET", "/v1/projects/-/issues", undefined, token.betaDev)), [beta.name]);
    assert.deepEqual(names(await call("GET", "/v1/issues", undefined, token.outsider)), []);
    const adminAll = names(await call("GET", "/v1/issues"));
    assert.ok(adminAll.includes(mine.name) && adminAll.includes(beta.name));
    assert.equal((await call("GET", "/v1/projects/beta/issues", undefined, token.dev)).code, "not_found");

    const filtered = async (filter: string, as = token.admin) => names(await call("GET", `/v1/projects/alpha/issues?filter=${encodeURIComponent(filter)}`, undefined, as));
    assert.deepEqual(await filtered('title:"by DEV" AND label:listed'), [mine.name]);
    assert.deepEqual(await filtered(`plan:"${mine.plan}"`), [mine.name]);
    assert.deepEqual(await filtered(`creator:users/dev AND approval_status:CHECKING AND status:OPEN AND create_time>="${mine.createTime}"`), [mine.name]);
    assert.deepEqual(await filtered(`type:DATABASE_CHANGE AND project:projects/alpha AND update_time>="${mine.updateTime}" AND creator!=users/admin`), [mine.name]);
    assert.deepEqual(await filtered("approval_status:PENDING"), []);
    const badField = await call("GET", `/v1/projects/alpha/issues?filter=${encodeURIComponent("owner:me")}`);
    assert.equal(badField.code, "invalid_argument");
    assert.match(badField.message, /unknown filter field "owner"; supported: approval_status, approver, create_time, creator, label, plan, project, status, title, type, update_time/);

    const all = names(await call("GET", "/v1/projects/alpha/issues?pageSize=1000"));
    const paged: string[] = [];
    let pageToken = "";
    do {
      const page = await call("GET", `/v1/projects/alpha/issues?pageSize=2&pageToken=${pageToken}`);
      paged.push(...names(page));
      pageToken = page.nextPageToken ?? "";
    } while (pageToken);
    assert.deepEqual(paged, all);
    assert.ok(all.length >= 5);
    const times = (await call("GET", "/v1/projects/alpha/issues")).issues.map((i: Json) => Date.parse(i.createTime));
    assert.deepEqual(times, [...times].sort((a, b) => b - a), "newest first");
  });

  it("answers a page polled again with every change its issues had since, in every API form (pages are kept by the issues' versions)", async () => {
    const issue = await newIssue({ plan: await newPlan(), title: "Polled" });
    const connect = createClient(IssueService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const listed = async () => {
      const [restPage, connectPage] = await Promise.all([
        call("GET", "/v1/projects/alpha/issues?pageSize=3"),
        connect.listIssues({ parent: "projects/alpha", pageSize: 3 }, { headers: { authorization: `Bearer ${token.admin}` } }),
      ]);
      const found = restPage.issues.find((i: Json) => i.name === issue.name);
      const viaConnect = connectPage.issues.find((i) => i.name === issue.name);
      assert.deepEqual([viaConnect?.title, Issue_Status[viaConnect?.status ?? 0], viaConnect?.rollout, viaConnect?.etag], [found.title, found.status, found.rollout ?? "", found.etag]);
      return found as Json;
    };
    assert.equal((await listed()).title, "Polled");
    assert.equal((await listed()).title, "Polled", "the kept page, again");
    const edited = await call("PATCH", `/v1/${issue.name}?updateMask=title`, { title: "Polled, renamed", etag: issue.etag });
    assert.deepEqual([(await listed()).title, (await listed()).etag], ["Polled, renamed", edited.etag]);
    await call("POST", `/v1/projects/alpha/issues:batchUpdateStatus`, { issues: [issue.name], status: "CANCELED" });
    assert.equal((await listed()).status, "CANCELED");
    // A rollout is made in a table of its own, without writing the issue.
    const planId = String(issue.plan).split("/").at(-1);
    await sql(`insert into rollout (project_id, id, plan_id, creator) values ('alpha', 'kept-pages', '${planId}', 'users/admin')`);
    assert.equal((await listed()).rollout, "projects/alpha/rollouts/kept-pages");
  });

  it("cancels and reopens issues, one record and one history event per issue, DONE refused", async () => {
    const plan = await newPlan();
    const [a, b] = [await newIssue({ plan }), await newIssue({ plan: await newPlan() })];
    const canceled = await call("POST", "/v1/projects/alpha/issues:batchUpdateStatus", { issues: [a.name, b.name], status: "CANCELED", reason: "not now" }, token.dev);
    assert.equal(canceled.httpStatus, 200, JSON.stringify(canceled));
    assert.deepEqual(canceled.issues.map((i: Json) => i.status), ["CANCELED", "CANCELED"]);
    const records = await sql(`select resource from audit_log where action = 'bb.issues.update' and resource in ('${a.name}', '${b.name}') order by resource`);
    assert.deepEqual(records.rows.map((r) => r.resource), [a.name, b.name].sort());

    const replacement = await newIssue({ plan });
    const reopen = await call("POST", "/v1/projects/alpha/issues:batchUpdateStatus", { issues: [a.name], status: "OPEN" });
    assert.deepEqual([reopen.code, reopen.message], ["already_exists", `plan "${plan}" already has issue "${replacement.name}" (OPEN)`]);
    await call("POST", "/v1/projects/alpha/issues:batchUpdateStatus", { issues: [replacement.name], status: "CANCELED" });
    assert.equal((await call("POST", "/v1/projects/alpha/issues:batchUpdateStatus", { issues: [a.name], status: "OPEN" })).issues[0].status, "OPEN");

    const done = await call("POST", "/v1/projects/alpha/issues:batchUpdateStatus", { issues: [a.name], status: "DONE" });
    assert.equal(done.code, "invalid_argument");
    const elsewhere = await call("POST", "/v1/projects/alpha/issues:batchUpdateStatus", { issues: ["projects/beta/issues/1"], status: "CANCELED" });
    assert.equal(elsewhere.code, "invalid_argument");
    assert.equal((await call("POST", "/v1/projects/alpha/issues:batchUpdateStatus", { issues: [a.name], status: "CANCELED" }, token.viewer)).code, "permission_denied");

    const history = (await call("GET", `/v1/${a.name}/comments`)).issueComments;
    assert.deepEqual(
      history.map((c: Json) => [c.type, c.event?.kind, c.event?.detail, c.comment, c.creator]),
      [
        ["EVENT", "STATUS_CHANGED", { from: "OPEN", to: "CANCELED" }, "not now", "users/dev"],
        ["EVENT", "STATUS_CHANGED", { from: "CANCELED", to: "OPEN" }, undefined, "users/admin"],
      ],
    );
  });

  it("keeps comments beside events, edited only by their authors, events never", async () => {
    const issue = await newIssue({ plan: await newPlan() });
    const posted = await call("POST", `/v1/${issue.name}/comments`, { comment: "looks good" }, token.dev);
    assert.equal(posted.httpStatus, 200, JSON.stringify(posted));
    assert.match(posted.name, new RegExp(`^${issue.name}/comments/\\d+$`));
    assert.deepEqual([posted.type, posted.creator, posted.comment], ["COMMENT", "users/dev", "looks good"]);
    assert.equal((await sql(`select action from audit_log where resource = '${posted.name}'`)).rows[0]?.action, "bb.issueComments.create");
    assert.equal((await call("POST", `/v1/${issue.name}/comments`, { comment: "  " }, token.dev)).code, "invalid_argument");
    assert.equal((await call("POST", `/v1/${issue.name}/comments`, { comment: "me too" }, token.viewer)).code, "permission_denied");

    const edited = await call("PATCH", `/v1/${posted.name}?updateMask=comment`, { comment: "looks great" }, token.dev);
    assert.equal(edited.comment, "looks great");
    const notAuthor = await call("PATCH", `/v1/${posted.name}?updateMask=comment`, { comment: "hijack" });
    assert.deepEqual([notAuthor.code, notAuthor.message], ["permission_denied", `only the author of "${posted.name}" (users/dev) may edit it`]);

    await call("POST", "/v1/projects/alpha/issues:batchUpdateStatus", { issues: [issue.name], status: "CANCELED" });
    for (let i = 0; i < 3; i++) await call("POST", `/v1/${issue.name}/comments`, { comment: `note ${i}` });
    const pages: Json[] = [];
    let pageToken = "";
    do {
      const page = await call("GET", `/v1/${issue.name}/comments?pageSize=2&pageToken=${pageToken}`, undefined, token.viewer);
      pages.push(...page.issueComments);
      pageToken = page.nextPageToken ?? "";
    } while (pageToken);
    assert.deepEqual(pages.map((c) => c.comment ?? c.event?.kind), ["looks great", "STATUS_CHANGED", "note 0", "note 1", "note 2"]);
    const event = pages[1]!;
    assert.equal((await call("PATCH", `/v1/${event.name}?updateMask=comment`, { comment: "rewrite" })).code, "failed_precondition");
    assert.equal((await call("GET", `/v1/projects/alpha/issues/999999/comments`)).code, "not_found");
  });
});
