// Directory sync (contract §5.4, §19.4): SCIM 2.0 groups as Okta pushes them
// and Microsoft Entra ID provisions them, and paging of both lists. A group
// bound to a role grants it to the members of the moment: a membership change
// from the directory acts on the member's next request. Groups made in the
// service stay out of the directory's reach.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { assertScimError, givePassword, newDirectoryToken, patchOp, scimClient, setDirectoryToken, type Json } from "./helpers/scim.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PROVISIONED = ["carol", "dave", "erin", "frank", "gina"];

describe("directory sync: groups and paging", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let call: ReturnType<typeof scimClient>;
  let admin = "";
  let carol = "";
  const token = newDirectoryToken();
  const sql = (text: string) => adminQuery(text, app.database.url);
  const bindAuditors = (...members: string[]) =>
    rest<Json>("POST", "/v1/workspaces/-:setIamPolicy", {
      token: admin,
      body: { policy: { bindings: [{ role: "roles/workspaceAdmin", members: ["user:login_id=admin"] }, ...(members.length ? [{ role: "roles/readOnlyAuditor", members }] : [])] } },
    });
  const canSearchAudit = async () => (await rest("GET", "/v1/auditLogs?pageSize=1", { token: carol })).status;
  const search = async (resource: string, query: string) => {
    const reply = await call("GET", `/${resource}?${query}`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };
  const patchGroup = async (id: string, ...operations: Json[]) => {
    const reply = await call("PATCH", `/Groups/${id}`, { body: patchOp(...operations) });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };
  const memberIds = (group: Json) => (group.members ?? []).map((m: Json) => m.value);

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    call = scimClient(app.baseUrl, () => token);
    admin = await signInFirstAdmin(rest);
    await setDirectoryToken(app, rest, admin, token);
    await makeUser(app.db, "local-lee");
    const local = await rest<Json>("POST", "/v1/groups?groupId=platform-dbas", { token: admin, body: { title: "Platform DBAs (local)" } });
    assert.equal(local.status, 200, JSON.stringify(local.body));
    for (const loginId of PROVISIONED) {
      const created = await call("POST", "/Users", { body: { userName: loginId, emails: [{ value: `${loginId}@example.com`, primary: true }] } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
    await givePassword(app, "carol");
    carol = await signIn(rest, "carol");
  });
  after(() => app.close());

  it("pages users and groups with startIndex, count and totalResults", async () => {
    const all = await search("Users", "startIndex=1&count=100");
    assert.deepEqual(all.Resources.map((u: Json) => u.id), PROVISIONED, "local accounts are not listed");
    const page = await search("Users", "startIndex=2&count=2");
    assert.deepEqual([page.totalResults, page.startIndex, page.itemsPerPage], [5, 2, 2]);
    assert.deepEqual(page.Resources.map((u: Json) => u.id), ["dave", "erin"]);
    assert.deepEqual((await search("Users", "startIndex=5&count=2")).Resources.map((u: Json) => u.id), ["gina"]);
    assert.deepEqual(await search("Users", "startIndex=9"), { ...page, startIndex: 9, itemsPerPage: 0, Resources: [] });
    const counted = await search("Users", "count=0");
    assert.deepEqual([counted.totalResults, counted.Resources], [5, []]);
    const shaped = await search("Users", "count=1&attributes=userName");
    assert.deepEqual(Object.keys(shaped.Resources[0]).sort(), ["id", "meta", "schemas", "userName"]);
    assert.equal((await search("Groups", "startIndex=1&count=10")).totalResults, 0, "the local group is not listed");
  });

  it("follows Okta's group push: find, create, add and remove members, rename; permissions follow on the next request", async () => {
    assert.equal((await search("Groups", `filter=${encodeURIComponent('displayName eq "Platform DBAs"')}`)).totalResults, 0);
    const created = await call("POST", "/Groups", { body: { schemas: [GROUP_SCHEMA], displayName: "Platform DBAs", members: [] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const group = created.body;
    assert.equal(group.id, "platform-dbas-2", "platform-dbas is taken by a local group");
    assert.deepEqual([group.displayName, group.members, group.meta.resourceType], ["Platform DBAs", [], "Group"]);
    assert.equal(created.headers.get("location"), `${app.baseUrl}/scim/v2/Groups/platform-dbas-2`);
    const seen = await rest<Json>("GET", "/v1/groups/platform-dbas-2", { token: admin });
    assert.deepEqual([seen.body.source, seen.body.title], ["SCIM", "Platform DBAs"]);
    assert.equal((await bindAuditors("group:platform-dbas-2")).status, 200);
    assert.equal(await canSearchAudit(), 403);

    const added = await patchGroup(group.id, { op: "add", path: "members", value: [{ value: "carol", display: "carol" }, { value: "dave" }] });
    assert.deepEqual(memberIds(added), ["carol", "dave"]);
    assert.equal(await canSearchAudit(), 200, "carol's same session gains the role at once");
    const removed = await patchGroup(group.id, { op: "remove", path: 'members[value eq "carol"]' });
    assert.deepEqual(memberIds(removed), ["dave"]);
    assert.equal(await canSearchAudit(), 403, "and loses it at once");

    const renamed = await patchGroup(group.id, { op: "replace", value: { id: group.id, displayName: "DBAs" } });
    assert.deepEqual([renamed.id, renamed.displayName], [group.id, "DBAs"]);
    assert.equal((await search("Groups", `filter=${encodeURIComponent('displayName eq "dbas"')}`)).Resources[0].id, group.id);
  });

  it("follows Microsoft Entra ID: members excluded from reads, the membership probe, its Add/Remove forms, PUT", async () => {
    const created = await call("POST", "/Groups", {
      contentType: "application/json",
      body: { schemas: [GROUP_SCHEMA], externalId: "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159", displayName: "Data Team", members: [{ value: "erin" }] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    assert.equal(id, "data-team");
    const read = await call("GET", `/Groups/${id}?excludedAttributes=members`);
    assert.equal("members" in read.body, false);
    assert.equal(read.body.externalId, "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159");
    const byExternalId = await search("Groups", `excludedAttributes=members&filter=${encodeURIComponent('externalId eq "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159"')}`);
    assert.deepEqual(byExternalId.Resources.map((g: Json) => [g.id, "members" in g]), [[id, false]]);
    const probe = (loginId: string) => search("Groups", `attributes=id&filter=${encodeURIComponent(`id eq "${id}" and members eq "${loginId}"`)}`);
    assert.deepEqual((await probe("erin")).Resources.map((g: Json) => Object.keys(g).sort()), [["id", "meta", "schemas"]]);
    assert.equal((await probe("frank")).totalResults, 0);

    await patchGroup(id, { op: "Add", path: "members", value: [{ $ref: null, value: "frank" }, { $ref: null, value: "erin" }] });
    const afterRemove = await patchGroup(id, { op: "Remove", path: "members", value: [{ $ref: null, value: "erin" }] });
    assert.deepEqual(memberIds(afterRemove), ["frank"]);
    assert.deepEqual(memberIds(await patchGroup(id, { op: "Replace", path: "displayName", value: "Data" })), ["frank"]);
    assert.deepEqual(memberIds(await patchGroup(id, { op: "remove", path: "members[value eq \"nobody\"]" })), ["frank"], "removing a non-member changes nothing");

    const replaced = await call("PUT", `/Groups/${id}`, { body: { schemas: [GROUP_SCHEMA], displayName: "Data", members: [{ value: "gina" }, { value: "dave" }] } });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.deepEqual([memberIds(replaced.body), "externalId" in replaced.body], [["dave", "gina"], false]);
    const rows = await sql(`select login_id, role from group_member where group_id = '${id}' order by login_id`);
    assert.deepEqual(rows.rows, [{ login_id: "dave", role: "MEMBER" }, { login_id: "gina", role: "MEMBER" }]);
  });

  it("refuses members it does not manage, duplicate names and bad patches with SCIM errors", async () => {
    const create = (body: Json) => call("POST", "/Groups", { body });
    assertScimError(await create({ displayName: "DBAs" }), 409, "uniqueness", /taken by group "platform-dbas-2"/);
    assertScimError(await create({ members: [] }), 400, "invalidValue", /displayName is required/);
    assertScimError(await create({ displayName: "X", members: [{ value: "local-lee" }] }), 400, "invalidValue", /no active user with id "local-lee"/);
    assertScimError(await create({ displayName: "X", members: "carol" }), 400, "invalidValue");
    const id = "platform-dbas-2";
    assertScimError(await call("PATCH", `/Groups/${id}`, { body: patchOp({ op: "add", path: "members", value: [{ value: "admin" }] }) }), 400, "invalidValue");
    assertScimError(await call("PATCH", `/Groups/${id}`, { body: patchOp({ op: "replace", path: "displayName", value: "Data" }) }), 409, "uniqueness");
    assertScimError(await call("PATCH", `/Groups/${id}`, { body: patchOp({ op: "replace", path: "id", value: "other" }) }), 400, "mutability");
    assertScimError(await call("GET", `/Groups?filter=${encodeURIComponent('title eq "x"')}`), 400, "invalidFilter", /supported: id, displayName/);
    assertScimError(await call("GET", "/Groups/platform-dbas"), 404, undefined, /no group/);
    assertScimError(await call("PATCH", "/Groups/platform-dbas", { body: patchOp({ op: "remove", path: "members" }) }), 404);
    assert.deepEqual(memberIds((await call("GET", `/Groups/${id}`)).body), ["dave"], "refused patches changed nothing");
  });

  it("deletes a group only when no IAM binding names it, and records every change with the actor scim", async () => {
    const id = "platform-dbas-2";
    assertScimError(await call("DELETE", `/Groups/${id}`), 400, "invalidValue", /named by bindings/);
    assert.equal((await bindAuditors()).status, 200);
    assert.equal((await call("DELETE", `/Groups/${id}`)).status, 204);
    assertScimError(await call("GET", `/Groups/${id}`), 404);
    assert.equal((await rest("GET", "/v1/groups/platform-dbas", { token: admin })).status, 200, "the local group is untouched");

    const records = (await sql(`select action, resource, status_code, detail from audit_log where actor = 'scim' and resource like 'groups/%' order by id`)).rows;
    const find = (action: string, status = "ok") => records.filter((r) => r.action === action && r.status_code === status);
    assert.deepEqual(find("bb.groups.create").map((r) => r.resource), ["groups/platform-dbas-2", "groups/data-team"]);
    assert.deepEqual(find("bb.groups.update")[0].detail, { changed: ["members"], added: ["carol", "dave"], removed: [] });
    assert.deepEqual(find("bb.groups.update")[1].detail, { changed: ["members"], added: [], removed: ["carol"] });
    assert.deepEqual(find("bb.groups.delete", "failed_precondition").map((r) => r.resource), [`groups/${id}`]);
    assert.deepEqual(find("bb.groups.delete").map((r) => r.resource), [`groups/${id}`]);
  });

  it("holds a directory to the per-user rate limit, counted per client address", async () => {
    const limited = await startTestApp({ bootstrap: ADMIN, flags: ["--rate-limit-per-user", "3"] });
    try {
      const limitedRest = restClient(limited.baseUrl);
      await setDirectoryToken(limited, limitedRest, await signInFirstAdmin(limitedRest), token);
      const limitedCall = scimClient(limited.baseUrl, () => token);
      const from = (address: string, bearer = token) => limitedCall("GET", "/Users", { token: bearer, headers: { "x-forwarded-for": address } });
      const statuses = [];
      for (const bearer of [token, "wrong", token]) statuses.push((await from("10.0.0.1", bearer)).status);
      assert.deepEqual(statuses, [200, 401, 200], "a wrong token counts too");
      const refused = await from("10.0.0.1");
      assertScimError(refused, 429, undefined, /too many requests/);
      assert.match(refused.headers.get("retry-after") ?? "", /^\d+$/);
      assert.equal((await from("10.0.0.2")).status, 200, "another address has a count of its own");
    } finally {
      await limited.close();
    }
  });
});
