// First start and local recovery (contract §4.7): the first start creates the
// administrator once (a generated password is logged once), replicas
// starting together create it once, and the server command resets a lost
// password directly on the store.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createTestDatabase, adminQuery, type TestDatabase } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { killAllServers, runUntilExit, spawnServer, type ServerProcess } from "./helpers/server-process.ts";

const TEST_TIMEOUT = { timeout: 90_000 };
const PASSWORD_LINE = /^bootstrap admin password: (\S{24})$/;

describe("bootstrap and local recovery", () => {
  const databases: TestDatabase[] = [];
  after(async () => {
    await killAllServers();
    await Promise.all(databases.map((db) => db.drop()));
  });
  const database = async () => {
    const db = await createTestDatabase();
    databases.push(db);
    return db;
  };
  const generatedPasswords = (server: ServerProcess) =>
    server.logs.map((l) => PASSWORD_LINE.exec(String(l.json?.msg ?? ""))?.[1]).filter((p): p is string => p !== undefined);
  const login = (server: ServerProcess, loginId: string, password: string) =>
    restClient(server.baseUrl)<{ requireResetPassword?: boolean }>("POST", "/v1/auth/login", { body: { loginId, password } });

  it("creates the administrator once, logging a generated password once", TEST_TIMEOUT, async () => {
    const db = await database();
    const env = { PG_URL: db.url };
    const first = await spawnServer({ entry: "api/main.ts", args: ["--port", "0", "--bootstrap-admin-login-id", "Root"], env });
    const [password] = generatedPasswords(first);
    assert.ok(password, first.output());
    const reply = await login(first, "root", password);
    assert.equal(reply.status, 200);
    assert.equal(reply.body.requireResetPassword, true);
    await first.stop();

    const second = await spawnServer({ entry: "api/main.ts", args: ["--port", "0"], env });
    assert.deepEqual(generatedPasswords(second), [], "never again");
    await second.stop();
    const users = await adminQuery("select login_id from principal", db.url);
    assert.deepEqual(users.rows, [{ login_id: "root" }]);
  });

  it("creates one administrator when replicas start together", TEST_TIMEOUT, async () => {
    const db = await database();
    const env = { PG_URL: db.url };
    const replicas = await Promise.all(
      [1, 2, 3].map(() => spawnServer({ entry: "api/main.ts", args: ["--port", "0", "--bootstrap-admin-password", "Given-Passw0rd!"], env })),
    );
    assert.equal(replicas.flatMap(generatedPasswords).length, 0, "a given password is not logged");
    const count = await adminQuery("select count(*)::int as n from principal", db.url);
    assert.equal(count.rows[0].n, 1);
    const policy = await adminQuery("select bindings from iam_policy where scope = 'workspaces/-'", db.url);
    assert.deepEqual(policy.rows[0].bindings, [{ role: "roles/workspaceAdmin", members: ["user:login_id=admin"] }]);
    await Promise.all(replicas.map((r) => r.stop()));
  });

  it("resets a lost password and lifts a lock with the server command", TEST_TIMEOUT, async () => {
    const db = await database();
    const env = { PG_URL: db.url };
    const server = await spawnServer({ entry: "api/main.ts", args: ["--port", "0", "--bootstrap-admin-password", "Lost-Passw0rd!"], env });
    await adminQuery("insert into login_failure (login_id, failure_count, locked_until) values ('admin', 11, now() + interval '15 minutes')", db.url);
    const { exit, server: command } = await runUntilExit({ entry: "admin.ts", args: ["reset-password", "admin"], env });
    assert.deepEqual(exit, { code: 0, signal: null }, command.output());
    const printed = /new one-time password for "admin": (\S+)/.exec(command.output())?.[1];
    assert.ok(printed, command.output());
    assert.equal((await login(server, "admin", "Lost-Passw0rd!")).status, 401);
    const reply = await login(server, "admin", printed);
    assert.equal(reply.status, 200, "the lock was lifted too");
    assert.equal(reply.body.requireResetPassword, true);
    const audit = await adminQuery("select actor, action from audit_log where action = 'bb.auth.password.reset'", db.url);
    assert.deepEqual(audit.rows, [{ actor: "system", action: "bb.auth.password.reset" }]);

    const unknown = await runUntilExit({ entry: "admin.ts", args: ["unlock", "nobody-here"], env });
    assert.equal(unknown.exit.code, 0, unknown.server.output());
    const usage = await runUntilExit({ entry: "admin.ts", args: ["explode"], env });
    assert.equal(usage.exit.code, 2);
    await server.stop();
  });
});
