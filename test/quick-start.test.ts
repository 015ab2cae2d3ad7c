// The quick start of the README, as a newcomer runs it: `npm start` on a fresh
// embedded store creates the sample project with a test and a prod instance
// whose databases live in the embedded PostgreSQL, and the first change can
// be planned and checked at once.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { killAllServers, spawnServer, type ServerProcess } from "./helpers/server-process.ts";

type Json = Record<string, any>;
const PASSWORD = "Quick-Start-Pass-1";
const NEW_PASSWORD = "Quick-Start-Pass-2";

describe("quick start", () => {
  let dataDir: string;
  let server: ServerProcess;

  const call = async (method: string, path: string, token?: string, body?: unknown): Promise<Json> => {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Json;
  };

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "svc-quick-start-"));
  });
  after(async () => {
    await killAllServers();
    const pid = Number((await readFile(join(dataDir, "pg", "postmaster.pid"), "utf8").catch(() => "")).split("\n")[0]);
    if (pid > 0) for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("creates the sample on the first start and takes a first change through checks, issue and rollout", { timeout: 120_000 }, async () => {
    const args = ["--port", "0", "--data", dataDir, "--bootstrap-admin-password", PASSWORD];
    server = await spawnServer({ entry: "main.ts", args, env: { PG_URL: undefined, DATABASE_URL: undefined }, timeoutMs: 60_000 });
    assert.ok(server.logs.some((l) => String(l.json?.msg).startsWith("created the sample project")), server.output());

    // The README's steps: sign in, change the first password, sign in again.
    const first = await call("POST", "/v1/auth/login", undefined, { loginId: "admin", password: PASSWORD });
    assert.equal(first.requireResetPassword, true);
    const changed = await call("PATCH", "/v1/users/admin", first.accessToken, {
      user: { password: NEW_PASSWORD }, updateMask: "password", currentPassword: PASSWORD,
    });
    assert.equal(changed.name, "users/admin", JSON.stringify(changed));
    const token = (await call("POST", "/v1/auth/login", undefined, { loginId: "admin", password: NEW_PASSWORD })).accessToken as string;

    const databases = await call("GET", "/v1/projects/sample/databases", token);
    assert.deepEqual(databases.databases.map((d: Json) => [d.name, d.environment]).sort(), [
      ["instances/sample-prod/databases/sample_prod", "environments/prod"],
      ["instances/sample-test/databases/sample_test", "environments/test"],
    ]);
    // Each sample instance reaches its own database only: never the service's store.
    const listed = await call("GET", "/v1/databases?pageSize=1000", token);
    assert.equal(listed.databases.length, 2, JSON.stringify(listed));

    const plan = await call("POST", "/v1/projects/sample/plans", token, {
      title: "Add a column",
      specs: [{ changeDatabaseConfig: { targets: ["instances/sample-test/databases/sample_test"], statement: "alter table employee add column phone text;" } }],
    });
    assert.ok(plan.name, JSON.stringify(plan));
    let run: Json = {};
    for (let i = 0; i < 300 && run.status !== "DONE"; i++) {
      run = (await call("GET", `/v1/${plan.name}/planCheckRuns?latestOnly=true`, token)).planCheckRuns[0];
      if (run.status === "RUNNING") await sleep(100);
      else break;
    }
    assert.equal(run.status, "DONE", JSON.stringify(run));
    assert.ok(run.results.some((r: Json) => r.type === "DRY_RUN" && r.status === "SUCCESS"), JSON.stringify(run.results));

    // The README goes on: an issue for the plan; test needs no approval, so the rollout runs at once.
    const issue = await call("POST", "/v1/projects/sample/issues", token, { plan: plan.name });
    assert.equal(issue.approvalStatus, "SKIPPED", JSON.stringify(issue));
    let rollout: Json = {};
    for (let i = 0; i < 300 && rollout.state !== "DONE"; i++) {
      rollout = await call("GET", `/v1/${issue.rollout}`, token);
      if (rollout.state !== "DONE") await sleep(100);
    }
    assert.equal(rollout.state, "DONE", JSON.stringify(rollout));
    const applied = await call("GET", "/v1/instances/sample-test/databases/sample_test/schema", token);
    assert.match(applied.schema, /phone text/i);
    assert.deepEqual(await server.stop(), { code: 0, signal: null }, server.output());

    // A second start re-points the sample at the embedded server's new port, and does not create it again.
    server = await spawnServer({ entry: "main.ts", args, env: { PG_URL: undefined, DATABASE_URL: undefined }, timeoutMs: 60_000 });
    assert.ok(!server.logs.some((l) => String(l.json?.msg).startsWith("created the sample project")));
    const again = (await call("POST", "/v1/auth/login", undefined, { loginId: "admin", password: NEW_PASSWORD })).accessToken as string;
    const schema = await call("GET", "/v1/instances/sample-test/databases/sample_test/schema", again);
    assert.match(schema.schema, /CREATE TABLE public\.employee/i, JSON.stringify(schema).slice(0, 500));
    assert.deepEqual(await server.stop(), { code: 0, signal: null }, server.output());
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
