// The PostgreSQL target driver (contract §9.3, §9.5, §10.3) against the tests'
// real server: version and database list, catalog metadata, deterministic DDL
// (byte-identical across dumps, statement orders and a round trip), EXPLAIN
// estimates without executing, dry runs that report the server's error at its
// line and column and leave the target unchanged, statements that cannot run
// in a transaction, and clean connection errors that never show the password.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DomainError } from "../shared/platform/errors.ts";
import { openTarget } from "../shared/inventory/engine/target-open.ts";
import type { ConnectionConfig, Target } from "../shared/inventory/engine/target.ts";
import { withDatabase } from "../shared/platform/postgres-url.ts";
import { adminQuery, adminUrl } from "./helpers/db.ts";
import { closedPort, pgServerConnection, uniqueName } from "./helpers/instances.ts";
import { silentServer } from "./helpers/silent-server.ts";

const SERVER: ConnectionConfig = pgServerConnection();
const WRONG_PASSWORD = "Wr0ng-Secret-Pw";

// One schema, written in two orders that give the same objects.
const SCHEMA_IN_ORDER = [
  "create schema app",
  "create type app.mood as enum ('sad', 'ok')",
  "create table app.users (id serial primary key, name varchar(20) not null default 'x', mood app.mood, email text unique, created timestamptz default now())",
  "comment on table app.users is 'people'",
  "comment on column app.users.name is 'display name'",
  `create table app.orders (id bigint generated always as identity primary key, user_id int, amount numeric(10,2) constraint amount_positive check (amount > 0),
     constraint orders_user_id_fkey foreign key (user_id) references app.users (id) on delete cascade)`,
  "create index orders_user_idx on app.orders (user_id, amount desc)",
  "create view app.big_orders as select id, amount from app.orders where amount > 100",
  "create view app.a_summary as select count(*) as n from app.big_orders",
  "create function app.add_one(i integer) returns integer language sql immutable as 'select i + 1'",
  "create table public.events (id int, at date) partition by range (at)",
  "create table public.events_2024 partition of public.events for values from ('2024-01-01') to ('2025-01-01')",
];
const SCHEMA_OTHER_ORDER = [
  "create schema app",
  "create function app.add_one(i integer) returns integer language sql immutable as 'select i + 1'",
  "create table public.events (id int, at date) partition by range (at)",
  "create table public.events_2024 partition of public.events for values from ('2024-01-01') to ('2025-01-01')",
  "create table app.orders (id bigint generated always as identity primary key, user_id int, amount numeric(10,2) constraint amount_positive check (amount > 0))",
  "create index orders_user_idx on app.orders (user_id, amount desc)",
  "create type app.mood as enum ('sad', 'ok')",
  "create table app.users (id serial primary key, name varchar(20) not null default 'x', mood app.mood, email text unique, created timestamptz default now())",
  "alter table app.orders add constraint orders_user_id_fkey foreign key (user_id) references app.users (id) on delete cascade",
  "create view app.big_orders as select id, amount from app.orders where amount > 100",
  "create view app.a_summary as select count(*) as n from app.big_orders",
  "comment on column app.users.name is 'display name'",
  "comment on table app.users is 'people'",
];
const DATA = [
  "insert into app.users (name) select 'n' || g from generate_series(1, 1000) g",
  "insert into app.orders (user_id, amount) select g, g from generate_series(1, 200) g",
  "analyze",
];

function expectFailure(error: unknown, problem: RegExp, config: ConnectionConfig = SERVER): true {
  assert.ok(error instanceof DomainError, `not a DomainError: ${String(error)}`);
  assert.equal(error.code, "failed_precondition");
  assert.match(error.message, new RegExp(`^cannot connect to ${config.host.replaceAll(".", "\\.")}:${config.port}: `));
  assert.match(error.message, problem);
  assert.ok(!error.message.includes(WRONG_PASSWORD), error.message);
  if (config.password) assert.ok(!error.message.includes(config.password), error.message);
  return true;
}

describe("PostgreSQL target", () => {
  const databases: string[] = [];
  let target: Target;
  let main: string;
  const sql = (database: string, statement: string) => adminQuery(statement, withDatabase(adminUrl(), database));
  const count = async (database: string, table: string) => Number((await sql(database, `select count(*) as n from ${table}`)).rows[0].n);
  const createDatabase = async (statements: string[]) => {
    const name = uniqueName("engine_pg");
    await adminQuery(`create database ${name} template template0`);
    databases.push(name);
    for (const statement of statements) await sql(name, statement);
    return name;
  };

  before(async () => {
    target = openTarget(SERVER);
    main = await createDatabase([...SCHEMA_IN_ORDER, ...DATA]);
  });
  after(async () => {
    await target.close();
    for (const name of databases) await adminQuery(`drop database if exists ${name} with (force)`);
  });

  it("answers the server version and lists the databases that allow connections, sorted", async () => {
    const expected = (await adminQuery("show server_version")).rows[0].server_version;
    assert.equal(await target.version(), expected);
    const names = await target.listDatabases();
    assert.ok(names.includes(main), `${main} missing from ${names.join(", ")}`);
    assert.ok(!names.includes("template0") && !names.includes("template1"));
    assert.deepEqual(names, [...names].sort());
  });

  it("reads tables with columns, indexes and constraints, views and functions from the catalog", async () => {
    const metadata = await target.metadata(main);
    assert.deepEqual(metadata.schemas.map((s) => s.name), ["app", "public"]);
    const app = metadata.schemas[0]!;
    assert.deepEqual(app.tables.map((t) => t.name), ["orders", "users"]);
    const users = app.tables[1]!;
    assert.deepEqual(users.columns.map((c) => [c.name, c.type, c.nullable, c.default]), [
      ["id", "integer", false, "nextval('app.users_id_seq'::regclass)"],
      ["name", "character varying(20)", false, "'x'::character varying"],
      ["mood", "app.mood", true, undefined],
      ["email", "text", true, undefined],
      ["created", "timestamp with time zone", true, "now()"],
    ]);
    assert.equal(users.comment, "people");
    assert.equal(users.columns[1]!.comment, "display name");
    assert.equal(users.rowEstimate, 1000);
    assert.deepEqual(users.indexes.map((i) => [i.name, i.unique, i.primary, i.columns]), [
      ["users_email_key", true, false, ["email"]],
      ["users_pkey", true, true, ["id"]],
    ]);
    const orders = app.tables[0]!;
    assert.deepEqual(orders.indexes.find((i) => i.name === "orders_user_idx"), {
      name: "orders_user_idx",
      columns: ["user_id", "amount"],
      unique: false,
      primary: false,
      definition: "CREATE INDEX orders_user_idx ON app.orders USING btree (user_id, amount DESC)",
    });
    assert.deepEqual(orders.constraints, [
      { name: "amount_positive", type: "CHECK", definition: "CHECK (amount > 0::numeric)" },
      { name: "orders_pkey", type: "PRIMARY KEY", definition: "PRIMARY KEY (id)" },
      { name: "orders_user_id_fkey", type: "FOREIGN KEY", definition: "FOREIGN KEY (user_id) REFERENCES app.users(id) ON DELETE CASCADE" },
    ]);
    assert.deepEqual(app.views.map((v) => v.name), ["a_summary", "big_orders"]);
    assert.match(app.views[1]!.definition, /FROM app\.orders\s+WHERE (orders\.)?amount > 100::numeric/);
    assert.deepEqual(app.functions.map((f) => f.name), ["add_one"]);
    assert.match(app.functions[0]!.definition, /^CREATE OR REPLACE FUNCTION app\.add_one\(i integer\)\n RETURNS integer/);
    assert.deepEqual(metadata.schemas[1]!.tables.map((t) => t.name), ["events", "events_2024"]);
  });

  it("dumps byte-identical DDL for the same schema: twice, from another statement order, and after a round trip", async () => {
    const ddl = await target.schemaDdl(main);
    assert.equal(await target.schemaDdl(main), ddl);
    const reordered = await createDatabase(SCHEMA_OTHER_ORDER);
    assert.equal(await target.schemaDdl(reordered), ddl);
    const replayed = await createDatabase([ddl]);
    assert.equal(await target.schemaDdl(replayed), ddl);
    for (const part of [
      "CREATE TYPE app.mood AS ENUM ('sad', 'ok');",
      "CREATE SEQUENCE app.users_id_seq AS integer START WITH 1 INCREMENT BY 1",
      "    name character varying(20) DEFAULT 'x'::character varying NOT NULL,",
      "    id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,",
      "ALTER TABLE app.orders ADD CONSTRAINT orders_user_id_fkey FOREIGN KEY (user_id) REFERENCES app.users(id) ON DELETE CASCADE;",
      "CREATE INDEX orders_user_idx ON app.orders USING btree (user_id, amount DESC);",
      "ALTER TABLE public.events ATTACH PARTITION public.events_2024 FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');",
      "COMMENT ON COLUMN app.users.name IS 'display name';",
    ]) {
      assert.ok(ddl.includes(part), `missing: ${part}\n${ddl}`);
    }
    assert.ok(ddl.indexOf("CREATE VIEW app.big_orders") < ddl.indexOf("CREATE VIEW app.a_summary"), "a view follows the view it reads");
  });

  it("estimates DML rows with EXPLAIN after the script's earlier DDL, without executing anything", async () => {
    const script = [
      "update app.users set name = 'y' where id <= 100;",
      "create table app.scratch (a int);",
      "insert into app.scratch values (1), (2), (3);",
      "delete from app.users;",
      "select nope from app.users;",
      "alter table app.users add column extra int;",
      "update app.users set extra = 1;",
      "drop table app.orders;",
    ].join("\n");
    const estimates = await target.explainRows(main, script);
    assert.deepEqual(estimates.map((e) => e.index), [0, 2, 3, 4, 6]);
    assert.ok(estimates[0]!.rows! >= 80 && estimates[0]!.rows! <= 120, `rows ${estimates[0]!.rows}`);
    assert.deepEqual(estimates.slice(1), [
      { index: 2, rows: 3 },
      { index: 3, rows: 1000 },
      { index: 4, error: 'column "nope" does not exist' },
      { index: 6, rows: 1000 },
    ]);
    assert.equal(await count(main, "app.users"), 1000);
    assert.equal((await sql(main, "select to_regclass('app.scratch') as t")).rows[0].t, null);
    assert.equal((await sql(main, "select count(*) as n from information_schema.columns where column_name = 'extra'")).rows[0].n, "0");
  });

  it("dry-runs DDL and DML, reports a missing column at its line and column, and leaves the target unchanged", async () => {
    const ddl = await target.schemaDdl(main);
    const script = [
      "alter table app.users add column note text;",
      "delete from app.orders;",
      "insert into app.users (name) values ('new');",
      "update app.users",
      "   set missing_col = 1;",
      "drop table app.users cascade;",
    ].join("\n");
    assert.deepEqual(await target.dryRun(main, script, { timeoutMs: 5_000 }), [
      { kind: "error", message: 'column "missing_col" of relation "users" does not exist', line: 5, column: 8 },
    ]);
    const clean = "create table app.t2 (a int);\ninsert into app.t2 values (1);\ndrop table app.orders cascade;\ntruncate app.users cascade;\ncommit;";
    assert.deepEqual(await target.dryRun(main, clean, { timeoutMs: 5_000 }), []);
    assert.equal(await target.schemaDdl(main), ddl);
    assert.equal(await count(main, "app.users"), 1000);
    assert.equal(await count(main, "app.orders"), 200);
  });

  it("stops a dry-run statement at the timeout, even when the script changes statement_timeout", async () => {
    const started = Date.now();
    const problems = await target.dryRun(main, "set statement_timeout = 0;\nselect pg_sleep(5);", { timeoutMs: 300 });
    assert.deepEqual(problems, [{ kind: "error", message: "canceling statement due to statement timeout", line: 2, column: 1 }]);
    assert.ok(Date.now() - started < 4_000);
  });

  it("checks statements that cannot run in a transaction without running them", async () => {
    const phantom = uniqueName("never_created");
    const script = [
      "create index concurrently users_name_idx on app.users (name);",
      "vacuum app.users;",
      `create database ${phantom};`,
      "create index concurrently orphan_idx on app.nope (a);",
    ].join("\n");
    const problems = await target.dryRun(main, script, { timeoutMs: 5_000 });
    assert.deepEqual(problems, [
      { kind: "not-dry-runnable", message: "CREATE INDEX CONCURRENTLY cannot run inside a transaction block: checked without running it", line: 1, column: 1 },
      { kind: "not-dry-runnable", message: "VACUUM cannot run inside a transaction block: checked without running it", line: 2, column: 1 },
      { kind: "not-dry-runnable", message: "CREATE DATABASE cannot run inside a transaction block: checked without running it", line: 3, column: 1 },
      { kind: "error", message: 'relation "app.nope" does not exist', line: 4, column: 41 },
    ]);
    assert.equal((await sql(main, "select to_regclass('app.users_name_idx') as i")).rows[0].i, null);
    assert.equal((await adminQuery(`select count(*) as n from pg_database where datname = '${phantom}'`)).rows[0].n, "0");
  });

  it("fails a lost connection cleanly instead of crashing the process", async () => {
    const outcome = target.dryRun(main, "select pg_sleep(30)", { timeoutMs: 60_000 }).then(
      (problems) => assert.fail(`expected a failure, got ${JSON.stringify(problems)}`),
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await adminQuery(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${main}' and query like '%pg_sleep(30)%' and pid <> pg_backend_pid()`);
    const error = await outcome;
    assert.ok(error instanceof DomainError && error.code === "failed_precondition", String(error));
    assert.match(error.message, /^query on .* failed: terminating connection due to administrator command$/);
  });

  describe("connection errors", () => {
    const failing = (overrides: Partial<ConnectionConfig>) => openTarget({ ...SERVER, ...overrides });

    it("names a refused connection", async () => {
      const port = await closedPort();
      await assert.rejects(failing({ port }).version(), (e) => expectFailure(e, /connection refused/, { ...SERVER, port }));
    });

    it("names a server that does not answer within the connect timeout, and a host that does not resolve", async () => {
      const silent = await silentServer();
      try {
        const config = { ...SERVER, port: silent.port, extraOptions: { connectTimeout: "300" } };
        const started = Date.now();
        await assert.rejects(openTarget(config).listDatabases(), (e) => expectFailure(e, /server unreachable \(no answer within 300 ms\)/, config));
        assert.ok(Date.now() - started < 3_000);
      } finally {
        await silent.close();
      }
      const config = { ...SERVER, host: "no-such-host.invalid" };
      await assert.rejects(openTarget(config).version(), (e) => expectFailure(e, /server unreachable/, config));
    });

    it("names failed authentication without showing the password", async () => {
      const config = { ...SERVER, username: "no_such_role", password: WRONG_PASSWORD };
      await assert.rejects(openTarget(config).version(), (e) => expectFailure(e, /authentication failed/, config));
      if (SERVER.password) {
        await assert.rejects(failing({ password: WRONG_PASSWORD }).version(), (e) => expectFailure(e, /authentication failed .*password authentication failed/));
      }
    });

    it("names an unknown database", async () => {
      await assert.rejects(target.metadata("no_such_database_here"), (e) => expectFailure(e, /unknown database \(database "no_such_database_here" does not exist\)/));
    });

    it("names a TLS failure when the server does not offer TLS", async (t) => {
      if ((await adminQuery("show ssl")).rows[0].ssl === "on") return t.skip("this server offers TLS");
      await assert.rejects(failing({ sslMode: "REQUIRE" }).version(), (e) => expectFailure(e, /TLS failed/));
    });

    it("refuses unknown extra options", () => {
      assert.throws(() => failing({ extraOptions: { sslmode: "off" } }), (e: unknown) => e instanceof DomainError && e.code === "invalid_argument" && /extraOptions\.sslmode/.test(e.message));
    });
  });
});
