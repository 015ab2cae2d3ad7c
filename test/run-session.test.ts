// The target session a task run's script executes in (shared/task-run/run-session.ts),
// on a real PostgreSQL target: opened ahead of the script, it runs the script in
// the run's database under the project's timeouts; closed unused (a run that did
// not start), or while it is still connecting, it leaves no connection behind;
// a deleted instance is never reached.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ExecuteRequest } from "../shared/inventory/engine/target.ts";
import { RunSession } from "../shared/change/task-run/run-session.ts";
import type { ExecutableRun } from "../shared/change/task-run/run-locks.store.ts";
import { adminQuery } from "./helpers/db.ts";
import { createPgTarget, eventually, pgServerConnection, testSecrets } from "./helpers/instances.ts";

const APPLICATION_NAME = "change-audit";

describe("a task run's target session", () => {
  let target: Awaited<ReturnType<typeof createPgTarget>>;
  const secrets = testSecrets();

  before(async () => {
    target = await createPgTarget();
  });
  after(() => target.drop());

  function runOf(statement: string, overrides: Partial<ExecutableRun> = {}): ExecutableRun {
    const server = pgServerConnection();
    const dataSource = {
      id: "admin",
      type: "ADMIN" as const,
      host: server.host,
      port: server.port,
      username: server.username,
      password: server.password ? secrets.seal(server.password) : "",
      database: "",
      sslMode: "DISABLE" as const,
      sslCa: "",
      extraOptions: {},
    };
    return {
      id: 1,
      taskId: 1,
      projectId: "p",
      rolloutId: "r",
      planId: "1",
      issueId: undefined,
      firstStatement: 0,
      creator: "users/someone",
      stageId: "s",
      instanceId: "i",
      databaseName: target.name,
      type: "DATABASE_MIGRATE",
      statement,
      releaseFile: undefined,
      lockTimeoutMs: 10_000,
      statementTimeoutMs: 0,
      slotsLimited: false,
      instance: { id: "i", engine: "POSTGRES", state: "ACTIVE", dataSources: [dataSource] },
      ...overrides,
    };
  }

  function request(run: ExecutableRun): ExecuteRequest {
    return { script: run.statement, firstStatement: 0, signal: new AbortController().signal, onSession: async () => {}, onStatement: async () => {} };
  }

  async function sessionsOnTarget(): Promise<number> {
    const { rows } = await adminQuery(`select count(*)::int as n from pg_stat_activity where datname = '${target.name}' and application_name = '${APPLICATION_NAME}'`);
    return rows[0]!.n as number;
  }

  it("runs the script in the run's database, under the project's timeouts", async () => {
    const applied = runOf("create table applied (id int)");
    const session = new RunSession(secrets, applied);
    session.open();
    assert.equal((await session.execute(request(applied))).state, "done");
    await session.close();
    await target.query("select 1 from applied");

    const slow = runOf("select pg_sleep(5)", { statementTimeoutMs: 200 });
    const limited = new RunSession(secrets, slow);
    const outcome = await limited.execute(request(slow));
    await limited.close();
    assert.equal(outcome.state, "failed");
    assert.match(outcome.error, /statement timeout/);
  });

  it("leaves no connection behind when closed unused, even while still connecting", async () => {
    const opened = new RunSession(secrets, runOf("select 1"));
    opened.open();
    await eventually(async () => (await sessionsOnTarget()) === 1, 5_000);
    await opened.close();
    await eventually(async () => (await sessionsOnTarget()) === 0, 5_000);

    const connecting = new RunSession(secrets, runOf("select 1"));
    connecting.open();
    await connecting.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await eventually(async () => (await sessionsOnTarget()) === 0, 5_000);
  });

  it("never reaches the target of a deleted instance", async () => {
    const deleted = runOf("create table never (id int)");
    const session = new RunSession(secrets, { ...deleted, instance: { ...deleted.instance, state: "DELETED" } });
    session.open();
    await assert.rejects(session.execute(request(deleted)), /instance "instances\/i" is deleted/);
    await session.close();
    assert.equal(await sessionsOnTarget(), 0);
    await assert.rejects(target.query("select 1 from never"), /does not exist/);
  });
});
