// The column catalog (contract §19.2): read with bb.databases.get, replaced
// with bb.databases.update (audited) — or, for the security officer, with
// bb.policies.get / update — every semantic type and classification checked
// against SEMANTIC_TYPES and DATA_CLASSIFICATION, every column against the
// database's synced schema.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { adminQuery } from "./helpers/db.ts";
import { patchCatalog, storeMaskingSchemes } from "./helpers/masking.ts";
import { signIn } from "./helpers/sessions.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";
import { makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;

describe("database catalog", () => {
  let t: SqlTargets;
  let viewer: string;
  let officer: string;
  before(async () => {
    t = await startSqlTargets(["create table person (id int, email text, phone text)"], () => ["create table person (id int, Email text)"]);
    assert.ok(t.my, "a MariaDB answers at 127.0.0.1:3306");
    await storeMaskingSchemes(t);
    for (const login of ["viewer", "officer"]) await makeUser(t.app.db, login);
    const bindings = [
      { role: "roles/workspaceAdmin", members: ["user:login_id=admin"] },
      { role: "roles/workspaceMember", members: ["user:login_id=viewer"] },
      { role: "roles/securityOfficer", members: ["user:login_id=officer"] },
    ];
    assert.equal((await t.rest("POST", "/v1/workspaces/-:setIamPolicy", { token: t.admin, body: { policy: { bindings } } })).status, 200);
    viewer = await signIn(t.rest, "viewer");
    officer = await signIn(t.rest, "officer");
  });
  after(() => t?.close());

  it("reads empty, stores the marked columns and drops unmarked ones", async () => {
    const empty = await t.rest<Json>("GET", `/v1/${t.pg.name}/catalog`, { token: t.admin });
    assert.deepEqual([empty.status, empty.body], [200, { name: `${t.pg.name}/catalog` }]);
    const saved = await patchCatalog(t, t.pg.name, [["public", "person", "email", "md5", ""], ["public", "person", "phone", "", "2"], ["public", "person", "id"]]);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const read = await t.rest<Json>("GET", `/v1/${t.pg.name}/catalog`, { token: viewer });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.schemas, [
      { name: "public", tables: [{ name: "person", columns: [{ name: "email", semanticType: "md5" }, { name: "phone", classification: "2" }] }] },
    ]);
  });

  it("refuses unknown semantic types and classifications, naming them", async () => {
    const type = await patchCatalog(t, t.pg.name, [["public", "person", "email", "nope", ""]]);
    assert.deepEqual([type.status, type.body.code], [400, "invalid_argument"]);
    assert.match(type.body.message, /"public\.person\.email": semantic type "nope" is not in SEMANTIC_TYPES/);
    const classification = await patchCatalog(t, t.pg.name, [["public", "person", "phone", "", "9"]]);
    assert.match(classification.body.message, /classification "9" is not in DATA_CLASSIFICATION/);
    const twice = await patchCatalog(t, t.pg.name, [["public", "person", "phone", "md5"], ["public", "person", "phone", "full"]]);
    assert.match(twice.body.message, /listed twice/);
  });

  it("refuses a column, table or schema the synced schema lacks, naming it; MySQL names without case", async () => {
    for (const [schema, table, column] of [["public", "person", "nope"], ["public", "nobody", "email"], ["other", "person", "email"]]) {
      const reply = await patchCatalog(t, t.pg.name, [[schema!, table!, column!, "md5"]]);
      assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"], column);
      assert.match(reply.body.message, new RegExp(`"${schema}\\.${table}\\.${column}" is not a column of a table in the database's synced schema`));
    }
    assert.equal((await patchCatalog(t, t.pg.name, [["public", "Person", "email", "md5"]])).status, 400);
    assert.equal((await patchCatalog(t, t.my!.name, [["", "person", "EMAIL", "md5"]])).status, 200);
    const missing = await patchCatalog(t, t.my!.name, [["", "person", "phone", "md5"]]);
    assert.match(missing.body.message, /"person\.phone" is not a column/);
  });

  it("refuses marking a database never synced, and accepts it once synced", async () => {
    await adminQuery(`update instance_database set metadata = null where name = '${t.pg.database}'`, t.app.database.url);
    const refused = await patchCatalog(t, t.pg.name, [["public", "person", "email", "md5"]]);
    assert.deepEqual([refused.status, refused.body.code], [400, "failed_precondition"]);
    assert.match(refused.body.message, /has no synced schema yet: sync it \(POST \/v1\/instances\/.*:sync\)/);
    assert.equal((await patchCatalog(t, t.pg.name, [])).status, 200, "clearing the catalog needs no schema");
    assert.equal((await t.rest("POST", `/v1/${t.pg.name}:sync`, { token: t.admin, body: {} })).status, 200);
    assert.equal((await patchCatalog(t, t.pg.name, [["public", "person", "email", "md5"]])).status, 200);
  });

  it("lets the security officer read and mark columns through bb.policies.get / update", async () => {
    const saved = await patchCatalog(t, t.pg.name, [["public", "person", "phone", "range"]], officer);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const read = await t.rest<Json>("GET", `/v1/${t.pg.name}/catalog`, { token: officer });
    assert.deepEqual(read.body.schemas[0].tables[0].columns, [{ name: "phone", semanticType: "range" }]);
    const { rows } = await adminQuery("select actor from audit_log where action = 'bb.databases.update' order by id desc limit 1", t.app.database.url);
    assert.equal(rows[0].actor, "users/officer");
  });

  it("needs bb.databases.update to write, and audits the write", async () => {
    const refused = await patchCatalog(t, t.pg.name, [], viewer);
    assert.deepEqual([refused.status, refused.body.code], [403, "permission_denied"]);
    assert.match(refused.body.message, /bb\.databases\.update/);
    assert.equal((await patchCatalog(t, t.pg.name, [["public", "person", "email", "full"]])).status, 200);
    const { rows } = await adminQuery("select resource, request from audit_log where action = 'bb.databases.update' order by id desc limit 1", t.app.database.url);
    assert.equal(rows[0].resource, `${t.pg.name}/catalog`);
    assert.match(JSON.parse(rows[0].request).catalog.name, /\/catalog$/);
  });

  it("answers not_found for a database that does not exist", async () => {
    const reply = await t.rest<Json>("GET", `/v1/${t.pg.name}x/catalog`, { token: t.admin });
    assert.deepEqual([reply.status, reply.body.code], [404, "not_found"]);
  });
});
