// The MySQL/MariaDB target driver (contract §9.3, §9.5, §10.3) against the
// real server at 127.0.0.1:3306 (skipped, with the reason logged, only when
// nothing answers there): version and schema list, information_schema
// metadata, SHOW CREATE DDL that does not drift with data or statement order,
// EXPLAIN estimates, a dry run that never runs DDL, rolls back the DML it runs
// and never changes the target, and clean connection errors.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { connect } from "node:net";
import mysql, { type Connection } from "mysql2/promise";
import { DomainError } from "../shared/platform/errors.ts";
import { openTarget } from "../shared/inventory/engine/target-open.ts";
import type { ConnectionConfig, Target } from "../shared/inventory/engine/target.ts";
import { closedPort, MYSQL, uniqueName } from "./helpers/instances.ts";
import { silentServer } from "./helpers/silent-server.ts";

const SERVER: ConnectionConfig = {
  engine: "MYSQL",
  host: MYSQL.host,
  port: MYSQL.port,
  username: MYSQL.user,
  password: MYSQL.password,
  database: "",
  sslMode: "DISABLE",
  sslCa: "",
  extraOptions: {},
};
const WRONG_PASSWORD = "Wr0ng-Secret-Pw";

const USERS = `create table users (id int auto_increment primary key, name varchar(20) not null default 'x' comment 'display name',
  email varchar(50), unique key uq_email (email), key idx_name (name(5)), constraint name_not_empty check (name <> '')) comment 'people'`;
const ORDERS_WITH_FK = `create table orders (id int auto_increment primary key, user_id int, amount decimal(10,2),
  constraint fk_user foreign key (user_id) references users (id) on delete cascade, constraint amount_positive check (amount > 0))`;
const ORDERS_WITHOUT_FK = `create table orders (id int auto_increment primary key, user_id int, amount decimal(10,2),
  constraint amount_positive check (amount > 0))`;
const SCHEMA_IN_ORDER = [
  USERS,
  ORDERS_WITH_FK,
  "create table audit_log (a int) engine=MyISAM",
  "create view big_orders as select id, amount from orders where amount > 100",
  "create function add_one(i int) returns int deterministic return i + 1",
];
const SCHEMA_OTHER_ORDER = [
  "create function add_one(i int) returns int deterministic return i + 1",
  "create table audit_log (a int) engine=MyISAM",
  ORDERS_WITHOUT_FK,
  USERS,
  "alter table orders add constraint fk_user foreign key (user_id) references users (id) on delete cascade",
  "create view big_orders as select id, amount from orders where amount > 100",
];
const DATA = [
  "insert into users (name) select concat('n', seq) from seq_1_to_500",
  "insert into orders (user_id, amount) select seq, seq from seq_1_to_200",
  "analyze table users, orders",
];

function expectFailure(error: unknown, problem: RegExp, config: ConnectionConfig = SERVER): true {
  assert.ok(error instanceof DomainError, `not a DomainError: ${String(error)}`);
  assert.equal(error.code, "failed_precondition");
  assert.match(error.message, new RegExp(`^cannot connect to ${config.host.replaceAll(".", "\\.")}:${config.port}: `));
  assert.match(error.message, problem);
  assert.ok(!error.message.includes(WRONG_PASSWORD), error.message);
  return true;
}

/** Whether anything accepts TCP connections there (a server that answers but refuses us fails the tests instead). */
function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("timeout", () => socket.destroy(new Error("timeout")));
    socket.on("error", () => resolve(false));
  });
}

const skip = (await reachable(MYSQL.host, MYSQL.port)) ? false : `nothing answers at ${MYSQL.host}:${MYSQL.port}`;
if (skip) console.log(`MySQL target tests skipped: ${skip}`);

describe("MySQL target", { skip }, () => {
  let admin: Connection;
  const schemas: string[] = [];
  let target: Target;
  let main: string;
  const count = async (schema: string, table: string) => {
    const [rows] = await admin.query(`select count(*) as n from \`${schema}\`.\`${table}\``);
    return Number((rows as { n: number }[])[0]!.n);
  };
  const createSchema = async (statements: string[]) => {
    const name = uniqueName("engine_my");
    await admin.query(`create database ${name}`);
    schemas.push(name);
    await admin.query(`use ${name}`);
    for (const statement of statements) await admin.query(statement);
    return name;
  };
  const snapshot = async (schema: string) => ({
    ddl: await target.schemaDdl(schema),
    users: await count(schema, "users"),
    orders: await count(schema, "orders"),
    auditLog: await count(schema, "audit_log"),
  });

  before(async () => {
    admin = await mysql.createConnection({ ...MYSQL });
    target = openTarget(SERVER);
    main = await createSchema([...SCHEMA_IN_ORDER, ...DATA]);
  });
  after(async () => {
    await target.close();
    for (const name of schemas) await admin.query(`drop database if exists ${name}`);
    await admin.end();
  });

  it("answers the server version and lists the schemas except the system ones, sorted", async () => {
    const [rows] = await admin.query("select version() as v");
    assert.equal(await target.version(), (rows as { v: string }[])[0]!.v);
    const names = await target.listDatabases();
    assert.ok(names.includes(main), `${main} missing from ${names.join(", ")}`);
    for (const system of ["information_schema", "performance_schema", "mysql", "sys"]) assert.ok(!names.includes(system), system);
    assert.deepEqual(names, [...names].sort());
  });

  it("reads tables with columns, indexes and constraints, views and functions into one schema named \"\"", async () => {
    const metadata = await target.metadata(main);
    assert.deepEqual(metadata.schemas.map((s) => s.name), [""]);
    const schema = metadata.schemas[0]!;
    assert.deepEqual(schema.tables.map((t) => [t.name, t.engine]), [["audit_log", "MyISAM"], ["orders", "InnoDB"], ["users", "InnoDB"]]);
    const users = schema.tables[2]!;
    assert.deepEqual(users.columns.map((c) => [c.name, c.type.replace(/\(11\)$/, ""), c.nullable, c.default, c.comment]), [
      ["id", "int", false, undefined, ""],
      ["name", "varchar(20)", false, "'x'", "display name"],
      ["email", "varchar(50)", true, undefined, ""],
    ]);
    assert.equal(users.comment, "people");
    assert.ok(users.rowEstimate > 0, `row estimate ${users.rowEstimate}`);
    assert.deepEqual(users.indexes, [
      { name: "PRIMARY", columns: ["id"], unique: true, primary: true, definition: "PRIMARY KEY (`id`)" },
      { name: "idx_name", columns: ["name"], unique: false, primary: false, definition: "CREATE INDEX `idx_name` ON `users` (`name`(5))" },
      { name: "uq_email", columns: ["email"], unique: true, primary: false, definition: "CREATE UNIQUE INDEX `uq_email` ON `users` (`email`)" },
    ]);
    const orders = schema.tables[1]!;
    assert.deepEqual(orders.constraints, [
      { name: "PRIMARY", type: "PRIMARY KEY", definition: "PRIMARY KEY (`id`)" },
      { name: "amount_positive", type: "CHECK", definition: "CHECK (`amount` > 0)" },
      { name: "fk_user", type: "FOREIGN KEY", definition: "FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE ON UPDATE RESTRICT" },
    ]);
    assert.deepEqual(schema.views.map((v) => v.name), ["big_orders"]);
    assert.match(schema.views[0]!.definition, /VIEW `big_orders` AS select .* from `orders` where `orders`\.`amount` > 100/);
    assert.deepEqual(schema.functions.map((f) => f.name), ["add_one"]);
    assert.match(schema.functions[0]!.definition, /FUNCTION `add_one`\(i int\) RETURNS int/);
  });

  it("dumps SHOW CREATE DDL that is byte-identical across dumps and statement orders and ignores AUTO_INCREMENT counters", async () => {
    const ddl = await target.schemaDdl(main);
    assert.equal(await target.schemaDdl(main), ddl);
    assert.doesNotMatch(ddl, /AUTO_INCREMENT=/);
    assert.match(ddl, /`id` int(\(11\))? NOT NULL AUTO_INCREMENT,/);
    assert.match(ddl, /CONSTRAINT `fk_user` FOREIGN KEY \(`user_id`\) REFERENCES `users` \(`id`\) ON DELETE CASCADE/);
    assert.match(ddl, /DELIMITER ;;\nCREATE DEFINER=.* FUNCTION `add_one`/);
    const empty = await createSchema(SCHEMA_OTHER_ORDER);
    assert.equal(await target.schemaDdl(empty), ddl);
  });

  it("estimates DML rows with EXPLAIN, leaving out DML on tables the script's DDL changes", async () => {
    const script = [
      "update users set name = 'y' where id <= 100;",
      "create table scratch (a int);",
      "insert into scratch values (1), (2);",
      "delete from users;",
      "select nope from users;",
      "select * from orders where amount > 150;",
      "alter table users add column extra int;",
      "update users set extra = 1;",
      "update users set name = 'z' where id <= 10;",
    ].join("\n");
    const estimates = await target.explainRows(main, script);
    assert.deepEqual(estimates.map((e) => e.index), [0, 3, 4, 5, 8]);
    assert.ok(estimates[0]!.rows! >= 90 && estimates[0]!.rows! <= 110, `rows ${estimates[0]!.rows}`);
    assert.equal(estimates[1]!.rows, 500);
    assert.match(estimates[2]!.error!, /Unknown column 'nope'/);
    assert.ok(estimates[3]!.rows! > 0);
    assert.ok(estimates[4]!.rows! >= 5 && estimates[4]!.rows! <= 20, `rows ${estimates[4]!.rows}`);
    assert.equal(await count(main, "users"), 500);
  });

  it("dry-runs without changing the target: DDL is checked, not run; DML runs and is rolled back", async () => {
    const before = await snapshot(main);
    const script = [
      "create table scratch (a int);",
      "alter table users add column note text;",
      "delete from orders;",
      "insert into users (name) values ('new');",
      "update users",
      "   set missing_col = 1;",
    ].join("\n");
    assert.deepEqual(await target.dryRun(main, script, { timeoutMs: 5_000 }), [
      { kind: "error", message: "Unknown column 'missing_col' in 'SET'", line: 6, column: 8 },
    ]);
    assert.deepEqual(await target.dryRun(main, "delete from users;\ndrop table orders;\ntruncate table users;\ncommit;", { timeoutMs: 5_000 }), []);
    assert.deepEqual(await target.dryRun(main, "insert into users (id, name) values (1, 'dup');", { timeoutMs: 5_000 }), [
      { kind: "error", message: "Duplicate entry '1' for key 'PRIMARY'", line: 1, column: 1 },
    ]);
    assert.deepEqual(await snapshot(main), before);
    const [tables] = await admin.query("select count(*) as n from information_schema.tables where table_schema = ? and table_name = 'scratch'", [main]);
    assert.equal(Number((tables as { n: number }[])[0]!.n), 0);
  });

  it("checks DDL names and syntax against the schema as the script's earlier DDL leaves it", async () => {
    const dryRun = (script: string) => target.dryRun(main, script, { timeoutMs: 5_000 });
    assert.deepEqual(await dryRun("alter table users add column note text;\nalter table nope add c int;"), [
      { kind: "error", message: `Table '${main}.nope' doesn't exist`, line: 2, column: 13 },
    ]);
    assert.deepEqual(await dryRun("alter table users drop column ghost"), [
      { kind: "error", message: "Can't DROP COLUMN `ghost`; check that it exists", line: 1, column: 31 },
    ]);
    assert.deepEqual(await dryRun("create table t1 (a int);\nalter table t1 add column b int, drop column a;\ndrop table t1;\ndrop table t1;"), [
      { kind: "error", message: `Unknown table '${main}.t1'`, line: 4, column: 12 },
    ]);
    assert.deepEqual(await dryRun("alter table users add column name int"), [
      { kind: "error", message: "Duplicate column name 'name'", line: 1, column: 30 },
    ]);
    const [syntax] = await dryRun("select 1;\nalter tabel users add c int;");
    assert.equal(syntax!.kind, "error");
    assert.match(syntax!.message, /You have an error in your SQL syntax.*near 'tabel users add c int'/);
    assert.deepEqual([syntax!.line, syntax!.column], [2, 7]);
  });

  it("reports what it checked without running: DML on tables the script changes, and DML a rollback cannot undo", async () => {
    const before = await snapshot(main);
    assert.deepEqual(await target.dryRun(main, "create table fresh (a int);\ninsert into fresh values (1);\ninsert into audit_log values (1);", { timeoutMs: 5_000 }), [
      { kind: "not-dry-runnable", message: "it uses fresh, which an earlier statement of the script changes (a MySQL dry run does not run DDL)", line: 2, column: 1 },
      { kind: "not-dry-runnable", message: "checked with EXPLAIN only, not run: table audit_log uses the non-transactional engine MyISAM", line: 3, column: 1 },
    ]);
    assert.deepEqual(await target.dryRun(main, "update big_orders set amount = 1;\ndelete from mysql.db where 1 = 0;", { timeoutMs: 5_000 }), [
      { kind: "not-dry-runnable", message: "checked with EXPLAIN only, not run: big_orders is a view", line: 1, column: 1 },
      { kind: "not-dry-runnable", message: "checked with EXPLAIN only, not run: it names the schema mysql", line: 2, column: 1 },
    ]);
    assert.deepEqual(await target.dryRun(main, "alter table users add column extra int;\nupdate users set extra = 1;\nupdate users set ghost = 1;", { timeoutMs: 5_000 }), [
      { kind: "not-dry-runnable", message: "it uses users, which an earlier statement of the script changes (a MySQL dry run does not run DDL)", line: 2, column: 1 },
      { kind: "error", message: "Unknown column 'ghost' in 'SET'", line: 3, column: 18 },
    ]);
    assert.deepEqual(await snapshot(main), before);
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
        await assert.rejects(openTarget(config).version(), (e) => expectFailure(e, /server unreachable \(no answer within 300 ms\)/, config));
        assert.ok(Date.now() - started < 3_000);
      } finally {
        await silent.close();
      }
      const config = { ...SERVER, host: "no-such-host.invalid" };
      await assert.rejects(openTarget(config).version(), (e) => expectFailure(e, /server unreachable/, config));
    });

    it("names failed authentication without showing the password", async () => {
      await assert.rejects(failing({ password: WRONG_PASSWORD }).version(), (e) => expectFailure(e, /authentication failed \(Access denied for user/));
    });

    it("names an unknown database", async () => {
      await assert.rejects(target.metadata("no_such_schema_here"), (e) => expectFailure(e, /unknown database \(Unknown database 'no_such_schema_here'\)/));
    });

    it("names a TLS failure when the server does not offer TLS", async (t) => {
      const [rows] = await admin.query("show variables like 'have_ssl'");
      if ((rows as { Value: string }[])[0]?.Value === "YES") return t.skip("this server offers TLS");
      await assert.rejects(failing({ sslMode: "REQUIRE" }).version(), (e) => expectFailure(e, /TLS failed/));
    });
  });
});
