// Who may query and explain (contract §14.1, §6): bb.sql.select and
// bb.sql.explain on the database's project — sqlEditorUser (workspace),
// projectQuerier, workspaceDBA, a custom role with bb.sql.select alone;
// projectViewer is refused; Explain with analyze also needs bb.sql.select.
// Explain answers the plan as text and JSON, analyze in a rolled-back
// transaction. The audit records carry the database, statement, row count,
// truncated and duration, never the rows.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { adminQuery } from "./helpers/db.ts";
import { signIn } from "./helpers/sessions.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";
import { makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;

describe("SQL Editor access, explain and audit", () => {
  let t: SqlTargets;
  const tokens: Record<string, string> = {};
  const bind = (role: string, login: string) => ({ role: `roles/${role}`, members: [`user:login_id=${login}`] });

  before(async () => {
    t = await startSqlTargets(["create table secrets (id int, word text)", "insert into secrets values (1, 'swordfish'), (2, 'hunter2')"], () => []);
    const post = (path: string, body: Json) => t.rest<Json>("POST", path, { token: t.admin, body });
    assert.equal((await post("/v1/projects?projectId=sqlq", { title: "sqlq" })).status, 200);
    assert.equal((await post("/v1/databases:transfer", { databases: [t.pg.name], targetProject: "projects/sqlq" })).status, 200);
    assert.equal((await post("/v1/roles?roleId=selectOnly", { title: "select only", permissions: ["bb.sql.select"] })).status, 200);
    assert.equal((await post("/v1/roles?roleId=explainOnly", { title: "explain only", permissions: ["bb.sql.explain", "bb.projects.get"] })).status, 200);
    const users = ["editor", "querier", "viewer", "dba", "custom", "explainer"];
    for (const login of users) await makeUser(t.app.db, login);
    const workspace = [bind("workspaceAdmin", "admin"), bind("sqlEditorUser", "editor"), bind("workspaceDBA", "dba")];
    assert.equal((await post("/v1/workspaces/-:setIamPolicy", { policy: { bindings: workspace } })).status, 200);
    const project = [bind("projectQuerier", "querier"), bind("projectViewer", "viewer"), bind("selectOnly", "custom"), bind("explainOnly", "explainer")];
    assert.equal((await post("/v1/projects/sqlq:setIamPolicy", { policy: { bindings: project } })).status, 200);
    for (const login of users) tokens[login] = await signIn(t.rest, login);
  });
  after(() => t?.close());

  it("lets sqlEditorUser, projectQuerier, workspaceDBA and a role with bb.sql.select query; refuses projectViewer", async () => {
    for (const login of ["editor", "querier", "dba", "custom"]) {
      const reply = await t.call("query", { name: t.pg.name, statement: "select count(*) from secrets" }, tokens[login]);
      assert.equal(reply.status, 200, `${login}: ${JSON.stringify(reply.body)}`);
    }
    const refused = await t.call("query", { name: t.pg.name, statement: "select 1" }, tokens.viewer);
    assert.deepEqual([refused.status, refused.body.code], [403, "permission_denied"]);
    assert.match(refused.body.message, /bb\.sql\.select required on projects\/sqlq/);
  });

  it("explains as text and JSON; analyze needs bb.sql.select as well", async () => {
    const plain = await t.call("explain", { name: t.pg.name, statement: "select * from secrets where id = 1" }, tokens.explainer);
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    assert.match(plain.body.plan, /Seq Scan on secrets/);
    assert.equal(JSON.parse(plain.body.planJson)[0].Plan["Node Type"], "Seq Scan");
    const refused = await t.call("explain", { name: t.pg.name, statement: "select * from secrets", analyze: true }, tokens.explainer);
    assert.deepEqual([refused.status, refused.body.code], [403, "permission_denied"]);
    assert.match(refused.body.message, /bb\.sql\.select required on projects\/sqlq/);
    const analyzed = await t.call("explain", { name: t.pg.name, statement: "select * from secrets", analyze: true }, tokens.querier);
    assert.equal(analyzed.status, 200, JSON.stringify(analyzed.body));
    assert.match(analyzed.body.plan, /actual time=/);
    const write = await t.call("explain", { name: t.pg.name, statement: "delete from secrets", analyze: true });
    assert.deepEqual([write.status, write.body.code], [400, "invalid_argument"]);
    assert.deepEqual(await t.pg.query("select count(*)::int as n from secrets"), [{ n: 2 }]);
  });

  it("runs explain analyze in a transaction that is rolled back: a side effect of the read is gone", async () => {
    await t.pg.query("create function makes_object() returns oid language sql as 'select lo_create(0)'");
    const before = await t.pg.query("select count(*)::int as n from pg_largeobject_metadata");
    const reply = await t.call("explain", { name: t.pg.name, statement: "select makes_object()", analyze: true });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(await t.pg.query("select count(*)::int as n from pg_largeobject_metadata"), before);
  });

  it("explains on MySQL: the classic plan as a table, and its JSON form", async (c) => {
    if (!t.my) return c.skip("no MySQL at 127.0.0.1:3306");
    const reply = await t.call("explain", { name: t.my.name, statement: "select * from information_schema.schemata" });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.match(reply.body.plan, /^\+-+\+[\s\S]*\| id +\| select_type/);
    assert.ok(JSON.parse(reply.body.planJson).query_block);
  });

  it("audits the database, statement, row count, truncated and duration, never the rows", async () => {
    const reply = await t.call("query", { name: t.pg.name, statement: "select word from secrets order by id", limit: 1 });
    assert.equal(reply.status, 200);
    const [record] = (
      await adminQuery("select resource, request, response, detail from audit_log where action = 'bb.sql.query' order by id desc limit 1", t.app.database.url)
    ).rows;
    assert.equal(record.resource, t.pg.name);
    assert.equal(JSON.parse(record.request).statement, "select word from secrets order by id");
    assert.deepEqual(
      { ...record.detail, durationMs: typeof record.detail.durationMs },
      { database: t.pg.name, rowCount: 1, truncated: true, durationMs: "number" },
    );
    const response = JSON.parse(record.response);
    assert.deepEqual([response.results[0].rowsCount, response.results[0].rows], ["1", undefined]);
    assert.doesNotMatch(JSON.stringify(record), /swordfish|hunter2/);
  });
});
