// The access cache (sessions and IAM kept in each API process, dropped by
// change notices): on two API servers over one store, every way a credential
// or a permission ends — logout, a password change, deletion, a removed
// binding, a group left, a custom role narrowed — is refused on the very next
// request on both; a change made without its notice is served from the cache
// until the entry's age bound, which proves the cache is what answers; and a
// change channel that stops answering is not trusted (the store answers).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery, createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

type Rest = ReturnType<typeof restClient>;

const MAX_AGE_MS = 5_000; // shared/identity/access-cache.ts
const SYNC_TIMEOUT_MS = 2_000; // shared/platform/channel-listener.ts

describe("access cache on two API servers", () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let restA: Rest;
  let restB: Rest;
  let admin: string;

  before(async () => {
    database = await createTestDatabase();
    a = await startTestApp({ database, bootstrap: ADMIN });
    b = await startTestApp({ database });
    restA = restClient(a.baseUrl);
    restB = restClient(b.baseUrl);
    for (const login of ["bob", "carol", "dave", "erin", "frank"]) await makeUser(a.db, login);
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  const me = async (rest: Rest, token: string) => (await rest("GET", "/v1/users/me", { token })).status;
  /** Both servers answer 200 twice, so each holds the session in its cache. */
  const warm = async (token: string, path = "/v1/users/me") => {
    for (const rest of [restA, restB, restA, restB]) assert.equal((await rest("GET", path, { token })).status, 200, path);
  };
  const ok = async (rest: Rest, method: string, path: string, body: unknown) => {
    const reply = await rest(method, path, { token: admin, body });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };
  const needAdminSetup = async (rest: Rest) => (await rest<{ needAdminSetup?: boolean }>("GET", "/v1/actuator/info")).body.needAdminSetup ?? false;

  it("tells every server's sign-in page, within a notice's delay, once the first administrator has set up", async () => {
    assert.equal(await needAdminSetup(restA), true);
    assert.equal(await needAdminSetup(restB), true);
    admin = await signInFirstAdmin(restA);
    for (const rest of [restB, restA]) {
      const started = performance.now();
      while (await needAdminSetup(rest)) assert.ok(performance.now() - started < 1_000, "still pending a second after the notice");
    }
  });

  it("ends a session on both servers at logout", async () => {
    const token = await signIn(restA, "bob");
    await warm(token);
    assert.equal((await restA("POST", "/v1/auth/logout", { token, body: {} })).status, 200);
    assert.equal(await me(restB, token), 401);
    assert.equal(await me(restA, token), 401);
  });

  it("ends the other sessions on both servers when the password changes", async () => {
    const changing = await signIn(restA, "carol");
    const other = await signIn(restA, "carol");
    await warm(other);
    const changed = await restA("PATCH", "/v1/users/carol?updateMask=password", {
      token: changing,
      body: { user: { password: `${STRONG_PASSWORD}-2` }, currentPassword: STRONG_PASSWORD },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(await me(restB, other), 401);
    assert.equal(await me(restA, other), 401);
    assert.equal(await me(restB, changing), 200, "the session that changed the password goes on");
  });

  it("ends a deleted user's sessions on both servers", async () => {
    const token = await signIn(restA, "dave");
    await warm(token);
    assert.equal((await restA("DELETE", "/v1/users/dave", { token: admin })).status, 200);
    assert.equal(await me(restB, token), 401);
    assert.equal(await me(restA, token), 401);
  });

  describe("permissions", () => {
    let bob: string;
    const project = "/v1/projects/cached";
    const bobGets = async (rest: Rest) => (await rest("GET", project, { token: bob })).status;
    const setProjectPolicy = async (...bindings: object[]) => {
      const { etag } = await ok(restA, "GET", `${project}:getIamPolicy`, undefined);
      await ok(restA, "POST", `${project}:setIamPolicy`, { policy: { bindings, etag } });
    };
    before(async () => {
      bob = await signIn(restA, "bob");
      await ok(restA, "POST", "/v1/projects?projectId=cached", {});
    });

    it("refuses a removed binding on both servers at once", async () => {
      await setProjectPolicy({ role: "roles/projectViewer", members: ["user:login_id=bob"] });
      await warm(bob, project);
      await setProjectPolicy();
      assert.equal(await bobGets(restB), 404);
      assert.equal(await bobGets(restA), 404);
    });

    it("refuses a group's permission on both servers once the user leaves it", async () => {
      await ok(restA, "POST", "/v1/groups?groupId=viewers", { title: "Viewers", members: [{ member: "user:login_id=bob" }] });
      await setProjectPolicy({ role: "roles/projectViewer", members: ["group:viewers"] });
      await warm(bob, project);
      await ok(restA, "PATCH", "/v1/groups/viewers?updateMask=members", { members: [{ member: "user:login_id=erin" }] });
      assert.equal(await bobGets(restB), 404);
      assert.equal(await bobGets(restA), 404);
    });

    it("refuses a custom role's permission on both servers once the role is narrowed", async () => {
      await ok(restA, "POST", "/v1/roles?roleId=reader", { title: "Reader", permissions: ["bb.projects.get", "bb.issues.list"] });
      await setProjectPolicy({ role: "roles/reader", members: ["user:login_id=bob"] });
      await warm(bob, project);
      await ok(restA, "PATCH", "/v1/roles/reader?updateMask=permissions", { permissions: ["bb.issues.list"] });
      assert.equal(await bobGets(restB), 404);
      assert.equal(await bobGets(restA), 404);
    });
  });

  it("answers from the store, and refuses what was revoked, when the change channel stops answering", async (t) => {
    const token = await signIn(restA, "frank");
    await warm(token);
    const listeners = await adminQuery(
      `select pid from pg_stat_activity where application_name = 'svc access' and datname = current_database()`,
      database.url,
    );
    const pids = listeners.rows.map((row: { pid: number }) => row.pid);
    assert.equal(pids.length, 2, "one access channel per server");
    try {
      for (const pid of pids) process.kill(pid, 0);
    } catch {
      return t.skip("the database server's processes belong to another user: they cannot be stopped from here");
    }
    for (const pid of pids) process.kill(pid, "SIGSTOP"); // the channels hang: no answer, no notice
    try {
      await adminQuery(
        `update session_token set revoked_time = now() where principal_id = (select id from principal where login_id = 'frank')`,
        database.url,
      );
      const started = performance.now();
      assert.equal(await me(restB, token), 401, "a hung channel's cache is not trusted");
      assert.ok(performance.now() - started < SYNC_TIMEOUT_MS + 1_500, "the request waited on the hung channel past its timeout");
      assert.equal(await me(restA, token), 401);
    } finally {
      for (const pid of pids) process.kill(pid, "SIGCONT");
    }
    // Both servers listen again on new connections (the next test needs their caches).
    const started = performance.now();
    for (;;) {
      const now = await adminQuery(
        `select pid from pg_stat_activity
         where application_name = 'svc access' and datname = current_database() and query in ('listen access_changed', 'select 1')`,
        database.url,
      );
      const fresh = now.rows.filter((row: { pid: number }) => !pids.includes(row.pid));
      if (fresh.length === 2) break;
      assert.ok(performance.now() - started < 10_000, "the access channels did not come back");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it("answers from the cache when a change comes without its notice, for at most the entry's age bound", async () => {
    const token = await signIn(restA, "erin");
    await warm(token);
    // Triggers off for this statement: the revocation is written but not announced.
    await adminQuery(
      `set session_replication_role = replica;
       update session_token set revoked_time = now() where principal_id = (select id from principal where login_id = 'erin');`,
      database.url,
    );
    assert.equal(await me(restB, token), 200, "served from the cache: the store was not read");
    const started = performance.now();
    while ((await me(restB, token)) === 200) {
      assert.ok(performance.now() - started < MAX_AGE_MS + 1_000, "the revoked session still served after the age bound");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(await me(restA, token), 401);
  });
});
