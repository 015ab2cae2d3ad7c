// The SQL Editor's query history (contract §19.1): GET /v1/queryHistories
// lists the caller's own entries newest first; holders of
// bb.auditLogs.search list anyone's and filter by creator (creator=me for
// their own); the filter
// fields database, statement (contains), type, create_time and creator;
// keyset paging; and the leader's clean-up that deletes entries older than
// WORKSPACE_PROFILE.query_history_retention.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { deleteExpiredQueryHistory, recordQueryHistory } from "../shared/sql-editor/index.ts";
import type { QueryHistoryEntry } from "../shared/sql-editor/index.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { eventually } from "./helpers/instances.ts";
import { restClient } from "./helpers/rest.ts";
import { type CleanupWorld, startCleanupWorld } from "./helpers/retention-cleanup.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";

type Json = Record<string, any>;

const SALES = "instances/hist/databases/sales";
const HR = "instances/hist/databases/hr";

describe("query history", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token = { admin: "", mary: "", otto: "", auditor: "" };

  const list = (as: string, query = "") => rest<Json>("GET", `/v1/queryHistories${query}`, { token: as });
  const statements = (reply: { body: Json }) => (reply.body.queryHistories ?? []).map((h: Json) => h.statement);
  const filtered = (as: string, filter: string) => list(as, `?filter=${encodeURIComponent(filter)}`);
  const seed = async (entry: Partial<QueryHistoryEntry> & { statement: string; creator: string }, daysAgo: number) => {
    await recordQueryHistory(app.db, { database: SALES, type: "QUERY", durationMs: 12.4, rowCount: 3, error: "", ...entry });
    await adminQuery(`update query_history set create_time = now() - make_interval(days => ${daysAgo}) where statement = '${entry.statement}'`, app.database.url);
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token.admin = await signInFirstAdmin(rest);
    for (const login of ["mary", "otto", "auditor"] as const) await makeUser(app.db, login);
    const bind = (role: string, login: string) => ({ role: `roles/${role}`, members: [`user:login_id=${login}`] });
    const bindings = [bind("workspaceAdmin", "admin"), bind("workspaceMember", "mary"), bind("workspaceMember", "otto"), bind("readOnlyAuditor", "auditor")];
    assert.equal((await rest("POST", "/v1/workspaces/-:setIamPolicy", { token: token.admin, body: { policy: { bindings } } })).status, 200);
    for (const login of ["mary", "otto", "auditor"] as const) token[login] = await signIn(rest, login);
    await seed({ creator: "users/mary", statement: "select * from orders" }, 5);
    await seed({ creator: "users/mary", statement: "SELECT count(*) FROM Customers", database: HR }, 4);
    await seed({ creator: "users/mary", statement: "update orders set paid = true", type: "EXECUTE", rowCount: 7, error: "permission denied for table orders" }, 3);
    await seed({ creator: "users/otto", statement: "select * from salaries", database: HR, type: "EXPORT" }, 2);
    await seed({ creator: "users/mary", statement: "select 1", rowCount: 1 }, 1);
  });
  after(async () => {
    await app.close();
  });

  it("lists the caller's own entries, newest first, with every field", async () => {
    const reply = await list(token.mary);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(statements(reply), ["select 1", "update orders set paid = true", "SELECT count(*) FROM Customers", "select * from orders"]);
    const executed = reply.body.queryHistories[1];
    assert.match(executed.name, /^queryHistories\/\d+$/);
    assert.deepEqual(
      [executed.creator, executed.database, executed.type, executed.durationMs, executed.rowCount, executed.error],
      ["users/mary", SALES, "EXECUTE", "12", "7", "permission denied for table orders"],
    );
    assert.ok(Date.now() - Date.parse(executed.createTime) > 2.9 * 86_400_000);
    assert.deepEqual(statements(await list(token.otto)), ["select * from salaries"]);
    assert.equal(statements(await list(token.auditor)).length, 5, "an auditor lists anyone's");
    assert.equal((await rest("GET", "/v1/queryHistories")).status, 401);
  });

  it("filters by database, statement (contains, any case), type and create time", async () => {
    assert.deepEqual(statements(await filtered(token.mary, `database="${HR}"`)), ["SELECT count(*) FROM Customers"]);
    assert.deepEqual(statements(await filtered(token.mary, "statement:customers")), ["SELECT count(*) FROM Customers"]);
    assert.deepEqual(statements(await filtered(token.mary, 'statement:"from orders"')), ["select * from orders"]);
    assert.deepEqual(statements(await filtered(token.mary, "type=EXECUTE")), ["update orders set paid = true"]);
    const since = new Date(Date.now() - 3.5 * 86_400_000).toISOString();
    assert.deepEqual(statements(await filtered(token.mary, `create_time >= "${since}" AND type = QUERY`)), ["select 1"]);
    const unknown = await filtered(token.mary, "owner=mary");
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /unknown filter field "owner"; supported: create_time, creator, database, statement, type/);
    assert.equal((await filtered(token.mary, "type=SOMETIMES")).status, 400);
  });

  it("lets only holders of bb.auditLogs.search list others' entries", async () => {
    const refused = await filtered(token.mary, "creator=users/otto");
    assert.deepEqual([refused.status, refused.body.code, refused.body.message], [403, "permission_denied", "permission bb.auditLogs.search required on workspaces/-"]);
    assert.equal((await filtered(token.mary, "creator!=users/otto")).status, 403);
    assert.equal(statements(await filtered(token.mary, "creator=me")).length, 4);
    assert.deepEqual(statements(await filtered(token.mary, "creator!=me")), []);
    assert.deepEqual(statements(await filtered(token.auditor, "creator=otto")), ["select * from salaries"]);
    assert.deepEqual(statements(await filtered(token.auditor, "creator=me")), []);
    assert.deepEqual(statements(await filtered(token.auditor, `database="${HR}"`)), ["select * from salaries", "SELECT count(*) FROM Customers"]);
    assert.equal(statements(await list(token.admin)).length, 5, "workspace admins hold bb.auditLogs.search");
  });

  it("pages with keyset tokens that belong to their query", async () => {
    const seen: string[] = [];
    let pageToken = "";
    do {
      const reply = await list(token.mary, `?pageSize=3&pageToken=${pageToken}`);
      assert.ok(reply.body.queryHistories.length <= 3);
      seen.push(...statements(reply));
      pageToken = reply.body.nextPageToken ?? "";
    } while (pageToken);
    assert.equal(seen.length, 4);
    const first = await list(token.mary, "?pageSize=1");
    const reused = await list(token.otto, `?pageSize=1&pageToken=${first.body.nextPageToken}`);
    assert.deepEqual([reused.status, reused.body.message], [400, "page_token does not belong to this query"]);
  });
});

describe("query history clean-up", () => {
  let world: CleanupWorld;
  const left = async () => (await adminQuery("select statement from query_history order by id", world.app.database.url)).rows.map((r) => r.statement);

  before(async () => {
    world = await startCleanupWorld("maintenance.cleanupQueryHistory", async (app) => {
      for (const [statement, days] of [["ancient", 100], ["old", 40], ["recent", 20], ["today", 0]] as const) {
        await recordQueryHistory(app.db, { creator: "users/mary", database: SALES, statement, type: "QUERY", durationMs: 1, rowCount: 0, error: "" });
        await adminQuery(`update query_history set create_time = now() - make_interval(days => ${days}) where statement = '${statement}'`, app.database.url);
      }
    });
  });
  after(() => world.close());

  it("is scheduled by the leader and keeps 90 days by default", async () => {
    await eventually(async () => (await left()).length === 3);
    assert.deepEqual(await left(), ["old", "recent", "today"]);
  });

  it("deletes what is older than query_history_retention", async () => {
    await mergeWorkspaceProfile(world.app, { queryHistoryRetention: "2592000s" });
    await world.cleanUpUntil(async () => (await left()).length === 2);
    assert.deepEqual(await left(), ["recent", "today"]);
  });

  it("keeps everything when the retention is 0s", async () => {
    await mergeWorkspaceProfile(world.app, { queryHistoryRetention: "0s" });
    assert.equal(await deleteExpiredQueryHistory(world.app.db, world.app.settings, new Date(Date.now() + 3650 * 86_400_000)), 0);
    assert.deepEqual(await left(), ["recent", "today"]);
  });
});
