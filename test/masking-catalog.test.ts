// The column catalog (contract §19.2): read with bb.databases.get, replaced
// with bb.databases.update (audited), every semantic type and classification
// checked against SEMANTIC_TYPES and DATA_CLASSIFICATION.
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
  before(async () => {
    t = await startSqlTargets(["create table person (id int, email text, phone text)"], () => []);
    await storeMaskingSchemes(t);
    await makeUser(t.app.db, "viewer");
    const policy = { bindings: [{ role: "roles/workspaceAdmin", members: ["user:login_id=admin"] }, { role: "roles/workspaceMember", members: ["user:login_id=viewer"] }] };
    assert.equal((await t.rest("POST", "/v1/workspaces/-:setIamPolicy", { token: t.admin, body: { policy } })).status, 200);
    viewer = await signIn(t.rest, "viewer");
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
