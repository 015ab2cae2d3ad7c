// Databases (contract §9.5) on an instance of the tests' real PostgreSQL,
// synced by the sync itself: get and list (per instance, per project,
// workspace-wide, with filters and paging), update labels, environment and
// project, transfer between projects with bb.databases.update on both sides
// (all or none, audited), the live DDL, the synced metadata, and a sync of
// one database.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { syncInstance } from "../shared/inventory/instance/instance-sync.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { closedPort, createInstanceOk, createPgTarget, pgAdminSource, testSecrets } from "./helpers/instances.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;

describe("databases", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token = { admin: "", olivia: "", peter: "", nobody: "" };
  const prefix = `dbt_${randomBytes(4).toString("hex")}`;
  const [A, B] = [`${prefix}_a`, `${prefix}_b`];
  const nameOf = (db: string) => `instances/pg-db/databases/${db}`;
  const targets: { drop(): Promise<void>; query(sql: string): Promise<unknown> }[] = [];

  const call = (method: string, path: string, body?: unknown, as = token.admin) => rest<Json>(method, path, { token: as, body });
  const sql = async (text: string) => (await adminQuery(text, app.database.url)).rows as Json[];
  const refusal = (reply: { status: number; body: Json }) => [reply.status, reply.body.code, reply.body.message];
  const names = (reply: { body: Json }) => (reply.body.databases ?? []).map((d: Json) => d.name);
  const projectOf = async (db: string) => (await call("GET", `/v1/${nameOf(db)}`)).body.project;
  const patch = (db: string, database: Json, mask: string, as = token.admin) =>
    call("PATCH", `/v1/${nameOf(db)}?updateMask=${encodeURIComponent(mask)}`, { ...database, name: nameOf(db) }, as);
  const transfer = (databases: string[], targetProject: string, as = token.admin) => call("POST", "/v1/databases:transfer", { databases, targetProject }, as);
  const mine = encodeURIComponent(`instance=pg-db AND name:${prefix}`);

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token.admin = await signInFirstAdmin(rest);
    for (const login of ["olivia", "peter", "nobody"] as const) {
      await makeUser(app.db, login);
      token[login] = await signIn(rest, login);
    }
    targets.push(await createPgTarget(["create table widgets (id integer primary key, name text)"], A), await createPgTarget([], B));
    await createInstanceOk(rest, token.admin, "pg-db", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    assert.equal(await syncInstance(app.db, testSecrets(), "pg-db"), "OK");
    for (const id of ["alpha", "beta"]) assert.equal((await call("POST", `/v1/projects?projectId=${id}`, { title: id })).status, 200);
    const bind = (role: string, login: string) => ({ role: `roles/${role}`, members: [`user:login_id=${login}`] });
    const policies = { alpha: [bind("projectOwner", "olivia")], beta: [bind("projectQuerier", "olivia"), bind("projectOwner", "peter")] };
    for (const [project, bindings] of Object.entries(policies)) {
      assert.equal((await call("POST", `/v1/projects/${project}:setIamPolicy`, { policy: { bindings } })).status, 200);
    }
  });
  after(async () => {
    await app.close();
    for (const target of targets) await target.drop();
  });

  it("gets a database and lists databases per instance, per project and workspace-wide", async () => {
    const a = (await call("GET", `/v1/${nameOf(A)}`)).body;
    assert.deepEqual([a.name, a.project, a.environment, a.state, a.syncState, a.engine], [nameOf(A), "projects/default", "environments/test", "ACTIVE", "OK", "POSTGRES"]);
    assert.ok(a.lastSyncTime && a.etag);
    assert.equal(a.schemaVersion, undefined);
    assert.deepEqual(names(await call("GET", `/v1/instances/pg-db/databases?filter=${encodeURIComponent(`name:${prefix}`)}`)), [nameOf(A), nameOf(B)]);
    assert.deepEqual(names(await call("GET", `/v1/projects/default/databases?filter=${mine}`)), [nameOf(A), nameOf(B)]);
    assert.deepEqual(names(await call("GET", `/v1/databases?filter=${mine}`)), [nameOf(A), nameOf(B)]);
    const all = names(await call("GET", "/v1/instances/pg-db/databases?pageSize=1000"));
    assert.ok(all.includes("instances/pg-db/databases/postgres"), "every database of the server is found");
    assert.deepEqual(refusal(await call("GET", `/v1/${nameOf("nope")}`)), [404, "not_found", `database "${nameOf("nope")}" does not exist`]);
    assert.deepEqual(refusal(await call("GET", "/v1/projects/none/databases")).slice(0, 2), [404, "not_found"]);
    assert.deepEqual(refusal(await call("GET", "/v1/instances/none/databases")).slice(0, 2), [404, "not_found"]);
  });

  it("filters by each field and pages in name order", async () => {
    const list = async (filter: string, query = "") => call("GET", `/v1/databases?filter=${encodeURIComponent(`instance=instances/pg-db AND name:${prefix} AND ${filter}`)}${query}`);
    assert.deepEqual(names(await list("engine=POSTGRES")), [nameOf(A), nameOf(B)]);
    assert.deepEqual(names(await list("engine=MYSQL")), []);
    assert.deepEqual(names(await list("environment=environments/test")), [nameOf(A), nameOf(B)]);
    assert.deepEqual(names(await list("sync_state=OK")), [nameOf(A), nameOf(B)]);
    assert.deepEqual(names(await list(`name:${prefix}_b`)), [nameOf(B)]);
    assert.deepEqual(names(await list(`name!=${B}`)), [nameOf(A)]);
    assert.deepEqual(names(await list("project=projects/default")), [nameOf(A), nameOf(B)]);
    assert.deepEqual(names(await list("project!=default")), []);

    const first = await list("engine=POSTGRES", "&pageSize=1");
    assert.deepEqual(names(first), [nameOf(A)]);
    const second = await list("engine=POSTGRES", `&pageSize=1&pageToken=${first.body.nextPageToken}`);
    assert.deepEqual(names(second), [nameOf(B)]);
    assert.equal(second.body.nextPageToken ?? "", "");
    assert.deepEqual(refusal(await list("engine=MYSQL", `&pageToken=${first.body.nextPageToken}`)).slice(0, 2), [400, "invalid_argument"]);
    assert.match(refusal(await call("GET", "/v1/databases?filter=owner=me"))[2], /supported: engine, environment, instance, label, name, project, sync_state/);
  });

  it("updates labels and environment; the environment falls back to the instance's", async () => {
    const labelled = await patch(A, { labels: { team: "core", tier: "gold" } }, "labels");
    assert.deepEqual(labelled.body.labels, { team: "core", tier: "gold" });
    const byLabel = (label: string) => call("GET", `/v1/databases?filter=${encodeURIComponent(`name:${prefix} AND label:${label}`)}`);
    assert.deepEqual(names(await byLabel("team")), [nameOf(A)]);
    assert.deepEqual(names(await byLabel("team:core")), [nameOf(A)]);
    assert.deepEqual(names(await byLabel("team:edge")), []);

    const moved = await patch(A, { environment: "environments/prod", etag: labelled.body.etag }, "environment");
    assert.equal(moved.body.environment, "environments/prod");
    assert.deepEqual(names(await call("GET", `/v1/databases?filter=${encodeURIComponent(`name:${prefix} AND environment=prod`)}`)), [nameOf(A)]);
    assert.equal((await patch(A, { environment: "" }, "environment")).body.environment, "environments/test");

    assert.deepEqual(refusal(await patch(A, { labels: {}, etag: labelled.body.etag }, "labels")).slice(0, 2), [409, "aborted"]);
    assert.match(refusal(await patch(A, { environment: "environments/nope" }, "environment"))[2], /database\.environment: "environments\/nope" is not an environment/);
    assert.match(refusal(await patch(A, { labels: { "Bad Key": "x" } }, "labels"))[2], /database\.labels: label key "Bad Key"/);
    assert.match(refusal(await patch(A, {}, "engine"))[2], /field engine is output only/);
    assert.match(refusal(await patch(A, {}, "title"))[2], /unknown field "title"; editable fields: labels, environment, project/);
    const records = await sql(`select count(*)::int as n from audit_log where action = 'bb.databases.update' and resource = '${nameOf(A)}' and status_code = 'ok'`);
    assert.equal(records[0]!.n, 3);
  });

  it("moves a database to another project by update only with bb.databases.update on both projects", async () => {
    assert.equal((await patch(A, { project: "projects/alpha" }, "project")).body.project, "projects/alpha");
    assert.deepEqual(refusal(await patch(A, { project: "projects/beta" }, "project", token.olivia)), [
      403, "permission_denied", "permission bb.databases.update required on projects/beta",
    ]);
    assert.equal(await projectOf(A), "projects/alpha");
    assert.equal((await patch(A, { labels: { owner: "olivia" } }, "labels", token.olivia)).status, 200);
    assert.deepEqual(refusal(await patch(A, { labels: {} }, "labels", token.nobody)), [404, "not_found", "projects/alpha does not exist"]);
    assert.deepEqual(refusal(await patch(A, { project: "projects/none" }, "project")).slice(0, 2), [404, "not_found"]);
    assert.equal((await patch(A, { project: "projects/default" }, "project")).status, 200);
  });

  it("transfers databases all or none, with bb.databases.update on both sides, and audits it", async () => {
    const moved = await transfer([nameOf(A), nameOf(B)], "projects/alpha");
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual(moved.body.databases.map((d: Json) => [d.name, d.project]), [[nameOf(A), "projects/alpha"], [nameOf(B), "projects/alpha"]]);
    assert.deepEqual(names(await call("GET", `/v1/projects/alpha/databases?filter=${mine}`)), [nameOf(A), nameOf(B)]);
    const [record] = await sql(`select actor, resource, status_code, detail from audit_log where action = 'bb.databases.transfer' order by id desc limit 1`);
    assert.deepEqual(record, {
      actor: "users/admin", resource: "projects/alpha", status_code: "ok",
      detail: { moved: [{ database: nameOf(A), from: "projects/default" }, { database: nameOf(B), from: "projects/default" }] },
    });

    // Olivia owns alpha but only queries beta; Peter owns beta but cannot see alpha.
    assert.deepEqual(refusal(await transfer([nameOf(A)], "projects/beta", token.olivia)), [403, "permission_denied", "permission bb.databases.update required on projects/beta"]);
    assert.deepEqual(refusal(await transfer([nameOf(A)], "projects/beta", token.peter)), [404, "not_found", "projects/alpha does not exist"]);
    assert.equal(await projectOf(A), "projects/alpha");
    const refused = await sql(`select actor, status_code from audit_log where action = 'bb.databases.transfer' and status_code <> 'ok' order by id`);
    assert.deepEqual(refused, [{ actor: "users/olivia", status_code: "permission_denied" }, { actor: "users/peter", status_code: "not_found" }]);

    assert.deepEqual(refusal(await transfer([nameOf(A), nameOf("missing")], "projects/beta")), [404, "not_found", `database "${nameOf("missing")}" does not exist`]);
    assert.deepEqual([await projectOf(A), await projectOf(B)], ["projects/alpha", "projects/alpha"], "nothing moved");
    assert.match(refusal(await transfer([nameOf(A), nameOf(A)], "projects/beta"))[2], /databases\[1\]: .* is listed twice/);
    assert.match(refusal(await transfer([], "projects/beta"))[2], /name at least one database/);
    assert.match(refusal(await transfer([nameOf(A)], "beta"))[2], /^target_project: "beta" is not a valid name/);
    assert.equal((await call("DELETE", "/v1/projects/beta")).status, 200);
    assert.deepEqual(refusal(await transfer([nameOf(A)], "projects/beta")).slice(0, 2), [400, "failed_precondition"]);
    assert.equal((await transfer([nameOf(A), nameOf(B)], "projects/default")).status, 200);
  });

  it("reads the DDL live, the metadata of the last sync, and syncs one database now", async () => {
    const schema = await call("GET", `/v1/${nameOf(A)}/schema`);
    assert.equal(schema.status, 200, JSON.stringify(schema.body));
    assert.match(schema.body.schema, /CREATE TABLE .*widgets/);
    assert.equal((await call("GET", `/v1/${nameOf(A)}/schema`)).body.schema, schema.body.schema, "the same schema gives the same text");

    const tables = async () => ((await call("GET", `/v1/${nameOf(A)}/metadata`)).body.schemas as Json[]).find((s) => s.name === "public")?.tables.map((t: Json) => t.name);
    assert.deepEqual(await tables(), ["widgets"]);
    await targets[0]!.query("create table gizmos (id integer primary key)");
    assert.deepEqual(await tables(), ["widgets"], "metadata changes with a sync only");
    assert.match((await call("GET", `/v1/${nameOf(A)}/schema`)).body.schema, /gizmos/);
    const synced = await call("POST", `/v1/${nameOf(A)}:sync`, {});
    assert.deepEqual([synced.status, synced.body.syncState], [200, "OK"]);
    assert.deepEqual(await tables(), ["gizmos", "widgets"]);
    assert.equal((await sql(`select count(*)::int as n from audit_log where action = 'bb.databases.sync' and resource = '${nameOf(A)}'`))[0]!.n, 1);

    await sql(`insert into instance_database (instance_id, name) values ('pg-db', 'never_synced')`);
    assert.deepEqual(refusal(await call("GET", `/v1/${nameOf("never_synced")}/metadata`)).slice(0, 2), [400, "failed_precondition"]);
    assert.deepEqual(refusal(await call("GET", `/v1/${nameOf(A)}/schemas`)).slice(0, 2), [404, "not_found"]);

    const port = await closedPort();
    await sql(`update instance set data_sources = jsonb_set(data_sources, '{0,port}', '${port}') where id = 'pg-db'`);
    const failed = await call("POST", `/v1/${nameOf(A)}:sync`, {});
    assert.deepEqual([failed.status, failed.body.syncState], [200, "FAILED"]);
    assert.match(failed.body.syncError, new RegExp(`cannot connect to 127\\.0\\.0\\.1:${port}`));
    assert.deepEqual(await tables(), ["gizmos", "widgets"], "a failed sync keeps the last metadata");
    const unreachable = await call("GET", `/v1/${nameOf(A)}/schema`);
    assert.deepEqual([unreachable.status, unreachable.body.code], [400, "failed_precondition"]);
    await sql(`update instance set data_sources = jsonb_set(data_sources, '{0,port}', '${pgAdminSource().port}') where id = 'pg-db'`);
  });
});
