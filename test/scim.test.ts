// Directory sync (contract §5.4, §19.4): SCIM 2.0 users as Okta and
// Microsoft Entra ID provision them, on the real server and store. Off (501)
// until a token is set, 401 for a wrong one; users it creates have source
// SCIM; deactivation ends the user's sessions and sign-in at once; bad input
// answers 400 with a SCIM error, never 500 (NUL and over-long strings
// included); every change is recorded with the actor `scim`, without the
// password a directory may send.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { assertScimError, givePassword, newDirectoryToken, patchOp, scimClient, setDirectoryToken, type Json } from "./helpers/scim.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const OKTA_PASSWORD = "Okta-Synced-Secret-42";

describe("directory sync: users", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let admin = "";
  let call: ReturnType<typeof scimClient>;
  const token = newDirectoryToken();
  const sql = (text: string) => adminQuery(text, app.database.url);
  const me = async (accessToken: string) => (await rest("GET", "/v1/users/me", { token: accessToken })).status;
  const login = (loginId: string) => rest<Json>("POST", "/v1/auth/login", { body: { loginId, password: STRONG_PASSWORD } });
  const filterUsers = async (filter: string) => {
    const reply = await call("GET", `/Users?filter=${encodeURIComponent(filter)}&startIndex=1&count=100`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN, flags: ["--max-body-bytes", "64KiB"] });
    rest = restClient(app.baseUrl);
    admin = await signInFirstAdmin(rest);
    call = scimClient(app.baseUrl, () => token);
    await makeUser(app.db, "local-bob");
  });
  after(() => app.close());

  it("answers 501 with a SCIM error while no token is set, whatever the request carries", async () => {
    assertScimError(await call("GET", "/Users", { token: "" }), 501, undefined, /directory_sync_token/);
    assertScimError(await call("GET", "/Users", { token: "anything" }), 501);
    assertScimError(await call("POST", "/Groups", { body: { displayName: "x" } }), 501);
  });

  it("refuses a missing or wrong bearer token with 401, once a token is set; the token is never shown", async () => {
    await setDirectoryToken(app, rest, admin, token);
    const missing = await call("GET", "/Users", { token: "" });
    assertScimError(missing, 401, undefined, /bearer token is required/);
    assert.equal(missing.headers.get("www-authenticate"), "Bearer");
    assertScimError(await call("GET", "/Users", { token: `${token}x` }), 401, undefined, /not the directory sync token/);
    assertScimError(await call("GET", "/Users", { token: token.slice(1) }), 401);
    const profile = await rest<Json>("GET", "/v1/settings/WORKSPACE_PROFILE", { token: admin });
    assert.equal(profile.body.value.workspaceProfile.directorySyncTokenSet, true);
    assert.equal(JSON.stringify(profile.body).includes(token), false);
    const stored = await sql(`select value::text as v from setting where name = 'WORKSPACE_PROFILE'`);
    assert.equal(stored.rows[0].v.includes(token), false, "sealed at rest");
    assert.equal((await sql(`select 1 from audit_log where request like '%${token}%'`)).rows.length, 0);
  });

  it("describes itself: ServiceProviderConfig, ResourceTypes and Schemas", async () => {
    const config = await call("GET", "/ServiceProviderConfig");
    assert.equal(config.status, 200);
    assert.match(config.headers.get("content-type")!, /^application\/scim\+json/);
    assert.deepEqual([config.body.patch.supported, config.body.filter.supported, config.body.bulk.supported], [true, true, false]);
    assert.equal(config.body.authenticationSchemes[0].type, "oauthbearertoken");
    const types = await call("GET", "/ResourceTypes");
    assert.deepEqual(types.body.Resources.map((t: Json) => [t.id, t.endpoint, t.schema]), [
      ["User", "/Users", USER_SCHEMA],
      ["Group", "/Groups", "urn:ietf:params:scim:schemas:core:2.0:Group"],
    ]);
    assert.equal(types.body.totalResults, 2);
    assert.equal((await call("GET", "/ResourceTypes/User")).body.endpoint, "/Users");
    const schemas = await call("GET", "/Schemas");
    assert.deepEqual(schemas.body.Resources.map((s: Json) => s.id), [USER_SCHEMA, "urn:ietf:params:scim:schemas:core:2.0:Group"]);
    const user = await call("GET", `/Schemas/${USER_SCHEMA}`);
    assert.ok(user.body.attributes.some((a: Json) => a.name === "userName" && a.required === true));
    assertScimError(await call("GET", "/Schemas/urn:nothing"), 404);
    assertScimError(await call("GET", "/Bulk"), 404);
  });

  it("follows Okta: find by userName, create, read, replace (PUT), deactivate and reactivate by PATCH", async () => {
    assert.deepEqual(await filterUsers(`userName eq "alice@example.com"`), {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [],
    });
    const created = await call("POST", "/Users", {
      contentType: "application/scim+json; charset=utf-8",
      body: {
        schemas: [USER_SCHEMA], userName: "Alice@Example.com", name: { givenName: "Alice", familyName: "Smith" },
        emails: [{ primary: true, value: "alice@example.com", type: "work" }], displayName: "Alice Smith", locale: "en-US",
        externalId: "00ujl29u0le5T6Aj10h7", groups: [], password: OKTA_PASSWORD, active: true,
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.headers.get("content-type")!, /^application\/scim\+json/);
    const alice = created.body;
    assert.deepEqual({ ...alice, meta: undefined }, {
      schemas: [USER_SCHEMA], id: "alice@example.com", externalId: "00ujl29u0le5T6Aj10h7", userName: "alice@example.com",
      name: { formatted: "Alice Smith" }, displayName: "Alice Smith", emails: [{ value: "alice@example.com", type: "work", primary: true }],
      active: true, meta: undefined,
    });
    assert.equal(alice.meta.resourceType, "User");
    assert.equal(created.headers.get("location"), alice.meta.location);
    assert.equal(alice.meta.location, `${app.baseUrl}/scim/v2/Users/alice%40example.com`);
    const seen = await rest<Json>("GET", "/v1/users/alice@example.com", { token: admin });
    assert.deepEqual([seen.body.source, seen.body.state, seen.body.title, seen.body.email], ["SCIM", "ACTIVE", "Alice Smith", "alice@example.com"]);
    assert.deepEqual((await filterUsers(`userName eq "ALICE@example.com"`)).Resources, [alice]);
    assert.deepEqual((await call("GET", "/Users/alice%40example.com")).body, alice);

    const replaced = await call("PUT", "/Users/alice%40example.com", {
      body: { ...alice, displayName: "Alice Jones", emails: [{ primary: true, value: "alice.jones@example.com", type: "work" }], password: OKTA_PASSWORD },
    });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.deepEqual([replaced.body.displayName, replaced.body.emails[0].value, replaced.body.active], ["Alice Jones", "alice.jones@example.com", true]);

    await givePassword(app, "alice@example.com");
    const session = (await login("alice@example.com")).body.accessToken as string;
    assert.equal(await me(session), 200);
    const off = await call("PATCH", "/Users/alice%40example.com", { body: patchOp({ op: "replace", value: { active: false } }) });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.active, false);
    assert.equal(await me(session), 401, "the existing session is refused at once");
    assert.equal((await login("alice@example.com")).status, 401, "and password sign-in fails");
    assert.equal((await filterUsers(`userName eq "alice@example.com"`)).Resources[0].active, false);

    const on = await call("PATCH", "/Users/alice%40example.com", { body: patchOp({ op: "replace", path: "active", value: true }) });
    assert.equal(on.body.active, true);
    assert.equal((await login("alice@example.com")).status, 200);
    assertScimError(await call("POST", "/Users", { body: { userName: "alice@example.com" } }), 409, "uniqueness", /taken/);
  });

  it("follows Microsoft Entra ID: probe, create, match by externalId or work e-mail, patch with its forms, disable, delete", async () => {
    assert.equal((await filterUsers(`userName eq "${randomUUID()}"`)).totalResults, 0);
    const externalId = randomUUID();
    const created = await call("POST", "/Users", {
      contentType: "application/json",
      body: {
        schemas: [USER_SCHEMA, ENTERPRISE], externalId, userName: "Carol.Ng@contoso.com", active: true,
        emails: [{ type: "work", value: "Carol.Ng@contoso.com" }], name: { formatted: "Carol Ng", familyName: "Ng", givenName: "Carol" },
        [ENTERPRISE]: { department: "Data" }, roles: [],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.headers.get("content-type")!, /^application\/scim\+json/);
    assert.deepEqual([created.body.id, created.body.displayName, created.body.emails[0].value], ["carol.ng@contoso.com", "Carol Ng", "carol.ng@contoso.com"]);
    assert.equal((await filterUsers(`externalId eq "${externalId}"`)).Resources[0].id, "carol.ng@contoso.com");
    assert.equal((await filterUsers(`emails[type eq "work"].value eq "carol.ng@contoso.com"`)).totalResults, 1);
    assert.equal((await filterUsers(`urn:ietf:params:scim:schemas:core:2.0:User:userName eq "carol.ng@contoso.com" and active eq true`)).totalResults, 1);

    const path = "/Users/carol.ng%40contoso.com";
    const patched = await call("PATCH", path, {
      body: patchOp(
        { op: "Replace", path: 'emails[type eq "work"].value', value: "carol.lee@contoso.com" },
        { op: "Replace", path: "name.familyName", value: "Lee" },
        { op: "Add", path: `${ENTERPRISE}:department`, value: "Platform" },
        { op: "Replace", path: "displayName", value: "Carol Lee" },
        { op: "Add", path: "phoneNumbers[type eq \"work\"].value", value: "+1 555 0100" },
      ),
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual([patched.body.displayName, patched.body.emails], ["Carol Lee", [{ value: "carol.lee@contoso.com", type: "work", primary: true }]]);
    const added = await call("PATCH", path, { body: patchOp({ op: "Add", path: "emails", value: [{ type: "work", value: "c.lee@contoso.com", primary: true }] }) });
    assert.equal(added.body.emails[0].value, "c.lee@contoso.com", "a new primary address replaces the old one");

    await givePassword(app, "carol.ng@contoso.com");
    const session = (await login("carol.ng@contoso.com")).body.accessToken as string;
    const disabled = await call("PATCH", path, { body: patchOp({ op: "Replace", path: "active", value: "False" }) });
    assert.equal(disabled.body.active, false, JSON.stringify(disabled.body));
    assert.equal(await me(session), 401);
    assertScimError(await call("PATCH", path, { body: patchOp({ op: "Replace", path: "userName", value: "carol@contoso.com" }) }), 400, "mutability");

    const deleted = await call("DELETE", path);
    assert.deepEqual([deleted.status, deleted.body], [204, undefined]);
    assert.equal((await call("DELETE", path)).status, 204);
    assert.equal((await call("GET", path)).body.active, false, "deletion deactivates; the user is kept");
    assertScimError(await call("DELETE", "/Users/nobody"), 404);
  });

  it("answers 400 with a SCIM error for malformed bodies, filters and paths, and 413/415 as the app does", async () => {
    assertScimError(await call("POST", "/Users", { raw: "{not json" }), 400, "invalidSyntax");
    assertScimError(await call("POST", "/Users", { raw: "", contentType: "application/scim+json" }), 400, "invalidSyntax", /empty/);
    assertScimError(await call("POST", "/Users", { body: [] }), 400, "invalidSyntax");
    assertScimError(await call("POST", "/Users", { body: { displayName: "x" } }), 400, "invalidValue", /userName is required/);
    assertScimError(await call("POST", "/Users", { body: { userName: "bad name!" } }), 400, "invalidValue", /not a valid login id/);
    assertScimError(await call("POST", "/Users", { body: { userName: "dan", emails: [{ value: "not-an-address" }] } }), 400, "invalidValue");
    assertScimError(await call("POST", "/Users", { body: { userName: "dan", active: "maybe" } }), 400, "invalidValue");
    assertScimError(await call("POST", "/Users", { raw: "{}", contentType: "text/plain" }), 415);
    assertScimError(await call("POST", "/Users", { body: { userName: "dan", title: "x".repeat(70_000) } }), 413);
    assertScimError(await call("GET", `/Users?filter=${encodeURIComponent('nickName eq "x"')}`), 400, "invalidFilter", /"nickname" is not supported/);
    assertScimError(await call("GET", `/Users?filter=${encodeURIComponent('userName co "x"')}`), 400, "invalidFilter", /operator "co"/);
    assertScimError(await call("GET", `/Users?filter=${encodeURIComponent('userName eq "a" or userName eq "b"')}`), 400, "invalidFilter", /or is not supported/);
    assertScimError(await call("GET", `/Users?filter=${encodeURIComponent('userName eq "a')}`), 400, "invalidFilter");
    assertScimError(await call("GET", "/Users?startIndex=first"), 400, "invalidValue");
    // What the store cannot hold or should not: a NUL anywhere, a string over 1 KiB.
    assertScimError(await call("POST", "/Users", { body: { userName: "dan", displayName: "D\u0000n" } }), 400, "invalidValue", /^displayName: "D\\u0000n" contains a NUL/);
    assertScimError(await call("POST", "/Users", { body: { userName: "dan", emails: [{ value: "d\u0000@x.io" }] } }), 400, "invalidValue", /^emails\[0\]\.value: /);
    assertScimError(await call("POST", "/Users", { body: { userName: "dan", displayName: "x".repeat(2000) } }), 400, "invalidValue", /^displayName: too long: 2000 bytes/);
    assertScimError(await call("POST", "/Groups", { body: { displayName: "G\u0000" } }), 400, "invalidValue", /^displayName: /);
    assertScimError(await call("GET", `/Users?filter=${encodeURIComponent('userName eq "a\u0000b"')}`), 400, "invalidValue", /^filter: /);
    const alice = "/Users/alice%40example.com";
    assertScimError(await call("PATCH", alice, { body: { schemas: [] } }), 400, "invalidSyntax", /Operations/);
    assertScimError(await call("PATCH", alice, { body: patchOp({ op: "move", path: "active" }) }), 400, "invalidSyntax");
    assertScimError(await call("PATCH", alice, { body: patchOp({ op: "remove" }) }), 400, "noTarget");
    assertScimError(await call("PATCH", alice, { body: patchOp({ op: "replace", path: 'emails[type eq "work"', value: "x" }) }), 400, "invalidPath");
    assertScimError(await call("PATCH", alice, { body: patchOp({ op: "replace", path: "id", value: "eve" }) }), 400, "mutability");
    assert.equal((await call("GET", "/Users/alice%40example.com")).body.active, true, "refused patches changed nothing");
  });

  it("leaves local accounts alone: not found, not taken over", async () => {
    assert.equal((await filterUsers(`userName eq "local-bob"`)).totalResults, 0);
    assertScimError(await call("GET", "/Users/local-bob"), 404);
    assertScimError(await call("POST", "/Users", { body: { userName: "local-bob" } }), 409, "uniqueness", /local account/);
    assertScimError(await call("PATCH", "/Users/admin", { body: patchOp({ op: "replace", value: { active: false } }) }), 404);
    assert.equal((await signIn(rest, "local-bob")).length > 0, true);
  });

  it("holds provisioned e-mails to the workspace's domains when they are enforced", async () => {
    const enforced = await rest<Json>("PATCH", "/v1/settings/WORKSPACE_PROFILE?updateMask=workspaceProfile.domains,workspaceProfile.enforceIdentityDomain", {
      token: admin,
      body: { value: { workspaceProfile: { domains: ["example.com", "contoso.com"], enforceIdentityDomain: true } } },
    });
    assert.equal(enforced.status, 200, JSON.stringify(enforced.body));
    assertScimError(await call("POST", "/Users", { body: { userName: "mallory", emails: [{ value: "mallory@evil.com" }] } }), 400, "invalidValue", /outside the workspace's domains/);
    assertScimError(
      await call("PATCH", "/Users/alice%40example.com", { body: patchOp({ op: "replace", path: "emails", value: [{ value: "alice@evil.com", primary: true }] }) }),
      400, "invalidValue", /outside/,
    );
    assert.equal((await call("POST", "/Users", { body: { userName: "erin", emails: [{ value: "erin@example.com" }] } })).status, 201);
  });

  it("records every change with the actor scim, refusals included, never the password", async () => {
    const rows = (await sql(`select action, resource, method, status_code, request, detail from audit_log where actor = 'scim' order by id`)).rows;
    const summary = rows.map((r) => [r.action, r.resource, r.status_code]);
    for (const expected of [
      ["bb.users.create", "users/alice@example.com", "ok"],
      ["bb.role.assign", "workspaces/-", "ok"],
      ["bb.users.update", "users/alice@example.com", "ok"],
      ["bb.users.delete", "users/alice@example.com", "ok"],
      ["bb.users.undelete", "users/alice@example.com", "ok"],
      ["bb.users.update", "users/carol.ng@contoso.com", "invalid_argument"],
      ["bb.users.create", "users/mallory", "failed_precondition"],
    ]) {
      assert.ok(summary.some((s) => JSON.stringify(s) === JSON.stringify(expected)), `${JSON.stringify(expected)} in ${JSON.stringify(summary)}`);
    }
    const create = rows.find((r) => r.action === "bb.users.create" && r.resource === "users/alice@example.com")!;
    assert.equal(create.method, "POST /scim/v2/Users");
    assert.equal(JSON.parse(create.request).password, "***");
    const update = rows.find((r) => r.action === "bb.users.update" && r.resource === "users/alice@example.com")!;
    assert.deepEqual(update.detail, { changed: ["displayName", "emails"] });
    assert.equal(rows.some((r) => r.request.includes(OKTA_PASSWORD)), false);
    assert.equal((await sql(`select 1 from audit_log where request like '%${OKTA_PASSWORD}%' or response like '%${OKTA_PASSWORD}%'`)).rows.length, 0);
    const correlated = await call("PATCH", "/Users/alice%40example.com", { body: patchOp({ op: "replace", path: "displayName", value: "A. Jones" }) });
    const correlationId = correlated.headers.get("x-correlation-id")!;
    const record = await sql(`select actor, actor_ip from audit_log where correlation_id = '${correlationId}'`);
    assert.deepEqual(record.rows, [{ actor: "scim", actor_ip: "127.0.0.1" }]);
    const searched = await rest<Json>("GET", `/v1/auditLogs?filter=${encodeURIComponent("actor:scim")}&pageSize=1000`, { token: admin });
    assert.equal(searched.status, 200, JSON.stringify(searched.body));
    assert.equal(searched.body.auditLogs.length, rows.length + 1);
    assert.ok(searched.body.auditLogs.every((r: Json) => r.actor === "scim"));
  });
});
