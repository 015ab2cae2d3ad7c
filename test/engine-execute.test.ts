// Executing change scripts on real targets (contract §12.4–§12.6), through
// the Target interface: PostgreSQL in one transaction (rolled back whole on a
// failure or a cancel) unless a statement forbids it, then statement by
// statement; MySQL/MariaDB statement by statement; the per-statement log; lock
// and statement timeouts; cancellation that reaches the running statement;
// suspension at a statement boundary; continuation from a statement; and what
// becomes of a session whose client went away.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import mysql from "mysql2/promise";
import pg from "pg";
import { PgConnector } from "../shared/inventory/engine/postgres/pg-connection.ts";
import { openTarget } from "../shared/inventory/engine/target-open.ts";
import type { ConnectionConfig, ExecuteOutcome, ExecuteRequest, ScriptTimeouts, StatementLog, StopMode, Target, TargetSession } from "../shared/inventory/engine/target.ts";
import { withDatabase } from "../shared/platform/postgres-url.ts";
import { adminUrl } from "./helpers/db.ts";
import { connectMysql, createPgTarget, MYSQL, pgServerConnection, uniqueName } from "./helpers/instances.ts";

const PG: ConnectionConfig = pgServerConnection();
const MY: ConnectionConfig = { ...PG, engine: "MYSQL", host: MYSQL.host, port: MYSQL.port, username: MYSQL.user, password: MYSQL.password };

interface Run {
  outcome: ExecuteOutcome;
  log: StatementLog[];
  sessions: { session: TargetSession; transactional: boolean }[];
  ms: number;
}

/** Executes a script, collecting its log; `stop` aborts it (with the mode) 300 ms into statement `during` (which must last longer). */
async function execute(
  target: Target,
  database: string,
  script: string,
  options: Partial<Pick<ExecuteRequest, "firstStatement"> & ScriptTimeouts> & { stop?: { during: number; mode?: StopMode }; record?: (log: readonly StatementLog[]) => Promise<void> } = {},
): Promise<Run> {
  const log: StatementLog[] = [];
  const sessions: Run["sessions"] = [];
  const controller = new AbortController();
  const stopSoon = () => setTimeout(() => controller.abort(options.stop?.mode ?? "cancel"), 300);
  const started = performance.now();
  const session = await target.openScriptSession(database, { lockTimeoutMs: options.lockTimeoutMs ?? 10_000, statementTimeoutMs: options.statementTimeoutMs ?? 0 });
  const outcome = await session.execute({
    script,
    firstStatement: options.firstStatement ?? 0,
    signal: controller.signal,
    onSession: async (session, transactional) => {
      sessions.push({ session, transactional });
      if (options.stop?.during === 0) stopSoon();
      await options.record?.(log);
    },
    onStatement: async (entry) => {
      log.push(entry);
      if (options.stop && entry.index === options.stop.during - 1) stopSoon();
    },
  });
  return { outcome, log, sessions, ms: performance.now() - started };
}

describe("executing on PostgreSQL", () => {
  let target: Target;
  let db: Awaited<ReturnType<typeof createPgTarget>>;
  const rows = async (sql: string) => ((await db.query(sql)) as pg.QueryResult).rows;
  const tableExists = async (name: string) => (await rows(`select to_regclass('${name}') is not null as found`))[0].found as boolean;

  before(async () => {
    target = openTarget(PG);
    db = await createPgTarget(["create table base (id int primary key, v int)", "insert into base select g, g from generate_series(1, 10) g"]);
  });
  after(async () => {
    await target.close();
    await db.drop();
  });

  it("a client used with endLater is ended after use() answers, and close() waits for that end", async () => {
    const connector = new PgConnector(PG);
    const client = await connector.connect(db.name);
    // A slow end stands for a backend that takes its time to exit.
    let ended = false;
    const end = client.end.bind(client);
    client.end = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await end();
      ended = true;
    }) as typeof client.end;
    const answer = await connector.use(db.name, client, async (c) => (await c.query("select 1 as one")).rows[0].one as number, { endLater: true });
    assert.equal(answer, 1);
    assert.equal(ended, false, "use() answered without waiting for the end");
    await connector.close();
    assert.equal(ended, true, "close() waited for the end");
  });

  it("runs a script in one transaction, logging each statement with the rows it changed", async () => {
    const run = await execute(target, db.name, "create table t1 (id int);\ninsert into t1 select generate_series(1, 5);\nupdate base set v = v + 1 where id <= 3;");
    assert.deepEqual(run.outcome, { state: "done", error: "", nextStatement: 3, statementCount: 3, affectedRows: 8, transactional: true });
    assert.deepEqual(run.log.map((e) => [e.index, e.statement, e.rowsAffected, e.error]), [
      [0, "create table t1 (id int)", 0, ""],
      [1, "insert into t1 select generate_series(1, 5)", 5, ""],
      [2, "update base set v = v + 1 where id <= 3", 3, ""],
    ]);
    assert.ok(run.log.every((e) => e.durationMs >= 0 && e.time instanceof Date));
    const [{ session, transactional }] = run.sessions as [Run["sessions"][0]];
    assert.equal(transactional, true);
    assert.ok("xid" in session && session.pid > 0 && /^\d+$/.test(session.xid), JSON.stringify(session));
    assert.equal((await rows("select count(*)::int as n from t1"))[0].n, 5);
  });

  it("a failing statement fails the run with the server's message and rolls back everything before it", async () => {
    const run = await execute(target, db.name, "create table t2 (id int);\ninsert into t2 values (1);\ninsert into nosuch values (1);\ncreate table t3 (id int);");
    assert.equal(run.outcome.state, "failed");
    assert.equal(run.outcome.error, 'relation "nosuch" does not exist');
    assert.equal(run.outcome.nextStatement, 0, "nothing was applied");
    assert.equal(run.outcome.affectedRows, 0);
    assert.deepEqual(run.log.map((e) => [e.index, e.error]), [[0, ""], [1, ""], [2, 'relation "nosuch" does not exist']]);
    assert.equal(await tableExists("t2"), false);
  });

  it("skips the script's own BEGIN and COMMIT in a transactional run", async () => {
    const run = await execute(target, db.name, "begin;\ncreate table t4 (id int);\ncommit;\ninsert into nosuch values (1);");
    assert.equal(run.outcome.transactional, true);
    assert.equal(run.outcome.state, "failed");
    assert.equal(await tableExists("t4"), false, "the script's COMMIT did not commit the run's transaction");
  });

  it("runs a transactional script while its session is recorded, and commits only once the record is done", async () => {
    let ranMeanwhile = -1;
    let visibleMeanwhile: boolean | undefined;
    const run = await execute(target, db.name, "create table t20 (id int);\ninsert into t20 values (1);", {
      record: async (log) => {
        const deadline = Date.now() + 5_000;
        while (log.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
        ranMeanwhile = log.length;
        visibleMeanwhile = await tableExists("t20");
      },
    });
    assert.equal(run.outcome.state, "done");
    assert.equal(ranMeanwhile, 2, "the statements ran while the session was being recorded");
    assert.equal(visibleMeanwhile, false, "nothing was committed before the record was done");
    assert.equal(await tableExists("t20"), true);
  });

  it("rolls a transactional script back when its session cannot be recorded", async () => {
    const failing = execute(target, db.name, "create table t21 (id int);", {
      record: async (log) => {
        const deadline = Date.now() + 5_000;
        while (log.length < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
        throw new Error(`the metadata store is gone (${log.length} statement(s) ran meanwhile)`);
      },
    });
    await assert.rejects(failing, /the metadata store is gone \(1 statement\(s\) ran meanwhile\)/);
    assert.equal(await tableExists("t21"), false);
  });

  it("starts a statement-by-statement script only once its session is recorded", async () => {
    let ranMeanwhile = -1;
    const run = await execute(target, db.name, "create table t22 (id int);\ncreate index concurrently t22_id on t22 (id);", {
      record: async (log) => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        ranMeanwhile = log.length;
      },
    });
    assert.equal(run.outcome.transactional, false);
    assert.equal(run.outcome.state, "done");
    assert.equal(ranMeanwhile, 0);
  });

  it("runs a script with CREATE INDEX CONCURRENTLY statement by statement, each applied on its own", async () => {
    const run = await execute(target, db.name, "create table t5 (id int);\ncreate index concurrently t5_id on t5 (id);\ninsert into t5 values (1), (2);\ninsert into nosuch values (1);");
    assert.equal(run.outcome.transactional, false);
    assert.equal(run.sessions[0]!.transactional, false);
    assert.equal(run.sessions[0]!.session && "xid" in run.sessions[0]!.session, false);
    assert.equal(run.outcome.state, "failed");
    assert.equal(run.outcome.nextStatement, 3, "statements 1–3 were applied");
    assert.equal(run.outcome.affectedRows, 2);
    assert.deepEqual(run.log.map((e) => [e.index, e.rowsAffected, e.error]), [[0, 0, ""], [1, 0, ""], [2, 2, ""], [3, 0, 'relation "nosuch" does not exist']]);
    assert.equal(await tableExists("t5_id"), true);
    assert.equal((await rows("select count(*)::int as n from t5"))[0].n, 2);
  });

  it("continues from a given statement, never re-running the ones before it", async () => {
    const run = await execute(target, db.name, "insert into nosuch values (1);\ncreate table t6 (id int);", { firstStatement: 1 });
    assert.equal(run.outcome.state, "done");
    assert.deepEqual(run.log.map((e) => e.index), [1]);
    assert.equal(await tableExists("t6"), true);
  });

  it("bounds each statement by the statement timeout", async () => {
    const run = await execute(target, db.name, "create table t7 (id int);\nselect pg_sleep(10);", { statementTimeoutMs: 300 });
    assert.equal(run.outcome.state, "failed");
    assert.equal(run.outcome.error, "canceling statement due to statement timeout");
    assert.ok(run.ms < 5_000, `took ${run.ms} ms`);
    assert.equal(await tableExists("t7"), false);
  });

  it("bounds lock waits by the lock timeout", async () => {
    const holder = new pg.Client({ connectionString: withDatabase(adminUrl(), db.name) });
    await holder.connect();
    try {
      await holder.query("begin; lock table base in access exclusive mode");
      const run = await execute(target, db.name, "alter table base add column w int;", { lockTimeoutMs: 200 });
      assert.equal(run.outcome.state, "failed");
      assert.equal(run.outcome.error, "canceling statement due to lock timeout");
    } finally {
      await holder.end();
    }
  });

  it("a cancel interrupts the running statement on the server and rolls the transaction back", async () => {
    const run = await execute(target, db.name, "create table t8 (id int);\nselect pg_sleep(30);\ncreate table t9 (id int);", { stop: { during: 1 } });
    assert.equal(run.outcome.state, "canceled");
    assert.equal(run.outcome.error, "");
    assert.equal(run.outcome.nextStatement, 0);
    assert.ok(run.ms < 5_000, `took ${run.ms} ms`);
    assert.equal(run.log.length, 2, "the interrupted statement is logged");
    assert.equal(await tableExists("t8"), false);
    const pid = (run.sessions[0]!.session as { pid: number }).pid;
    assert.equal((await rows(`select count(*)::int as n from pg_stat_activity where pid = ${pid}`))[0].n, 0, "the session is closed");
  });

  it("a cancel of a statement-by-statement script keeps what was applied and says where it stopped", async () => {
    const run = await execute(target, db.name, "create table t10 (id int);\ncreate index concurrently t10_id on t10 (id);\nselect pg_sleep(30);\ncreate table t11 (id int);", {
      stop: { during: 2 },
    });
    assert.equal(run.outcome.state, "canceled");
    assert.equal(run.outcome.nextStatement, 2);
    assert.ok(run.ms < 5_000, `took ${run.ms} ms`);
    assert.equal(await tableExists("t10_id"), true);
    assert.equal(await tableExists("t11"), false);
  });

  it("a suspension lets the running statement of a statement-by-statement script finish, then stops", async () => {
    const run = await execute(target, db.name, "create index concurrently base_v on base (v);\nselect pg_sleep(1);\ncreate table t12 (id int);", {
      stop: { during: 1, mode: "suspend" },
    });
    assert.equal(run.outcome.state, "canceled");
    assert.equal(run.outcome.nextStatement, 2, "statements 1 and 2 ran");
    assert.equal(run.log[1]!.error, "");
    assert.ok(run.log[1]!.durationMs >= 900, "pg_sleep was not interrupted");
    assert.equal(await tableExists("t12"), false);
  });

  it("a suspension of a transactional script interrupts it and rolls it back", async () => {
    const run = await execute(target, db.name, "create table t13 (id int);\nselect pg_sleep(30);", { stop: { during: 1, mode: "suspend" } });
    assert.equal(run.outcome.state, "canceled");
    assert.equal(run.outcome.nextStatement, 0);
    assert.ok(run.ms < 5_000, `took ${run.ms} ms`);
    assert.equal(await tableExists("t13"), false);
  });

  it("a lost session is ended, and its transaction told committed or rolled back", async () => {
    /** A session in a transaction that has its id, named as a transactional run names it. */
    const open = async () => {
      const client = new pg.Client({ connectionString: withDatabase(adminUrl(), db.name) });
      client.on("error", () => undefined);
      await client.connect();
      const [, begun] = (await client.query("begin; select pg_backend_pid() as pid, txid_current()::text as xid")) as unknown as pg.QueryResult[];
      const row = begun!.rows[0];
      return { client, session: { pid: Number(row.pid), xid: String(row.xid) } };
    };
    const alive = async (pid: number) => (await rows(`select count(*)::int as n from pg_stat_activity where pid = ${pid}`))[0].n === 1;

    // Committed, its backend still connected (idle, out of the transaction): it is no longer the run's, and stays.
    const committed = await open();
    await committed.client.query("create table t14 (id int); commit");
    assert.deepEqual(await target.endLostSession(committed.session), { committed: true });
    assert.equal(await alive(committed.session.pid), true);
    await committed.client.end();

    // Still in the transaction: the backend is terminated, and its transaction rolled back.
    const open2 = await open();
    await open2.client.query("create table t15 (id int)");
    assert.deepEqual(await target.endLostSession(open2.session), { committed: false });
    assert.equal(await tableExists("t15"), false);
    assert.equal(await alive(open2.session.pid), false);

    // A statement-by-statement session is named by its start time: the backend is terminated; nothing tells a fate.
    const client = new pg.Client({ connectionString: withDatabase(adminUrl(), db.name) });
    client.on("error", () => undefined);
    await client.connect();
    const row = (await client.query("select pid, (extract(epoch from backend_start) * 1000000)::bigint::text as start from pg_stat_get_activity(pg_backend_pid())")).rows[0];
    assert.deepEqual(await target.endLostSession({ pid: Number(row.pid), backendStart: String(row.start) }), { committed: undefined });
    assert.equal(await alive(Number(row.pid)), false);
  });
});

describe("executing on MySQL", async () => {
  const probe = await connectMysql();
  await probe?.end();
  let target: Target;
  let admin: mysql.Connection;
  const database = uniqueName("exe");
  const tableExists = async (name: string) =>
    ((await admin.query("select 1 from information_schema.tables where table_schema = ? and table_name = ?", [database, name]))[0] as unknown[]).length > 0;

  before(async () => {
    if (!probe) return;
    target = openTarget(MY);
    admin = await mysql.createConnection({ ...MYSQL });
    await admin.query(`create database ${database}`);
    await admin.query(`create table ${database}.base (id int primary key, v int)`);
    await admin.query(`insert into ${database}.base values (1, 1), (2, 2), (3, 3)`);
  });
  after(async () => {
    if (!probe) return;
    await admin.query(`drop database if exists ${database}`);
    await admin.end();
    await target.close();
  });

  it("runs statement by statement: a failure keeps what was applied and names the failing statement", { skip: !probe && "no MySQL at 127.0.0.1:3306" }, async () => {
    const run = await execute(target, database, "create table m1 (id int);\ninsert into m1 values (1), (2);\nupdate base set v = v + 1;\ninsert into nosuch values (1);\ncreate table m2 (id int);");
    assert.equal(run.outcome.transactional, false);
    assert.equal(run.outcome.state, "failed");
    assert.equal(run.outcome.error, `Table '${database}.nosuch' doesn't exist`);
    assert.equal(run.outcome.nextStatement, 3);
    assert.equal(run.outcome.affectedRows, 5);
    assert.deepEqual(run.log.map((e) => [e.index, e.rowsAffected, e.error === ""]), [[0, 0, true], [1, 2, true], [2, 3, true], [3, 0, false]]);
    assert.ok("threadId" in run.sessions[0]!.session);
    assert.equal(await tableExists("m1"), true);
    assert.equal(await tableExists("m2"), false);
  });

  it("a cancel reaches the running statement with KILL QUERY", { skip: !probe && "no MySQL at 127.0.0.1:3306" }, async () => {
    const run = await execute(target, database, "create table m3 (id int);\nselect sleep(30);\ncreate table m4 (id int);", { stop: { during: 1 } });
    assert.equal(run.outcome.state, "canceled");
    assert.equal(run.outcome.nextStatement, 1);
    assert.ok(run.ms < 5_000, `took ${run.ms} ms`);
    assert.equal(await tableExists("m3"), true);
    assert.equal(await tableExists("m4"), false);
  });

  it("a statement that outlasts the statement timeout is interrupted and fails the run", { skip: !probe && "no MySQL at 127.0.0.1:3306" }, async () => {
    const run = await execute(target, database, "select sleep(30);\ncreate table m5 (id int);", { statementTimeoutMs: 300 });
    assert.equal(run.outcome.state, "failed");
    assert.equal(run.outcome.error, "statement timeout: the statement ran longer than 300 ms and was interrupted");
    assert.ok(run.ms < 5_000, `took ${run.ms} ms`);
    assert.equal(await tableExists("m5"), false);
  });

  it("a lost session is killed", { skip: !probe && "no MySQL at 127.0.0.1:3306" }, async () => {
    const lost = await mysql.createConnection({ ...MYSQL });
    lost.on("error", () => undefined);
    const [rows] = await lost.query("select connection_id() as id");
    const threadId = Number((rows as { id: number }[])[0]!.id);
    assert.deepEqual(await target.endLostSession({ threadId }), { committed: undefined });
    const [left] = await admin.query("select 1 from information_schema.processlist where id = ?", [threadId]);
    assert.equal((left as unknown[]).length, 0);
    lost.destroy();
  });
});
