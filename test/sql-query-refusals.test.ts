// The read-only guard (contract §14.3, docs/decisions/0078): every write form
// is refused with invalid_argument naming the statement, and nothing reaches
// the target (its data source goes through a counting proxy: no connection is
// made). Reads the guard lets through meet the read-only transaction: a write
// through a function is refused there and leaves nothing behind.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { MYSQL_WRITES, POSTGRES_WRITES } from "./helpers/read-only-refusals.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";

describe("SQL Editor read-only guard", () => {
  let t: SqlTargets;

  before(async () => {
    t = await startSqlTargets(
      [
        "create table canary (id int)",
        "insert into canary values (1)",
        "create sequence seq",
        "create table audit_trail (x int)",
        "create function writes() returns int language sql as 'insert into audit_trail values (1) returning x'",
      ],
      (db) => [`create table ${db}.canary (id int)`, `insert into ${db}.canary values (1)`, `create sequence ${db}.seq`],
    );
  });
  after(() => t?.close());

  for (const [engine, writes] of [["PostgreSQL", POSTGRES_WRITES], ["MySQL", MYSQL_WRITES]] as const) {
    it(`refuses ${writes.length} write forms on ${engine} before anything reaches the target`, async (c) => {
      const target = engine === "PostgreSQL" ? t.pg : t.my;
      if (!target) return c.skip("no MySQL at 127.0.0.1:3306");
      assert.ok(writes.length >= 25);
      const failures: string[] = [];
      for (const statement of writes) {
        const before = target.proxy.connections;
        const reply = await t.call("query", { name: target.name, statement });
        const refused = reply.status === 400 && reply.body.code === "invalid_argument" && /^only read statements are allowed: statement \d+ "/.test(reply.body.message);
        if (!refused) failures.push(`${statement} → ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`);
        if (target.proxy.connections !== before) failures.push(`${statement} reached the target`);
      }
      assert.deepEqual(failures, []);
      assert.deepEqual(await target.query("select id from canary"), [{ id: 1 }]);
      const read = await t.call("query", { name: target.name, statement: "select id from canary" });
      assert.equal(read.status, 200);
      assert.ok(target.proxy.connections > 0, "a read reaches the target through the proxy");
    });
  }

  it("names the statement and why it is refused", async () => {
    const reply = await t.call("query", { name: t.pg.name, statement: "select 1; with gone as (delete from canary returning *) select * from gone" });
    assert.equal(reply.body.message, 'only read statements are allowed: statement 2 "with gone as (delete from canary returning *) select * from gone" holds DELETE');
  });

  it("leaves writes the parser cannot see to the read-only transaction: nextval and a function that inserts fail and leave nothing", async () => {
    for (const statement of ["select nextval('seq')", "select writes()"]) {
      const [result] = (await t.call("query", { name: t.pg.name, statement })).body.results;
      assert.match(result.error, /read-only transaction/, statement);
    }
    assert.deepEqual(await t.pg.query("select count(*)::int as n from audit_trail"), [{ n: 0 }]);
    assert.deepEqual(await t.pg.query("select last_value::int as v, is_called from seq"), [{ v: 1, is_called: false }]);
  });

  it("rolls the read-only transaction back: what it allows (a large object, made in a function) does not last", async () => {
    await t.pg.query("create function makes_object() returns oid language sql as 'select lo_create(0)'");
    const before = await t.pg.query("select count(*)::int as n from pg_largeobject_metadata");
    const reply = await t.call("query", { name: t.pg.name, statement: "select makes_object() as o" });
    assert.equal(reply.body.results[0].error ?? "", "");
    assert.deepEqual(await t.pg.query("select count(*)::int as n from pg_largeobject_metadata"), before);
  });

  it("on MySQL, reads SHOW statements its grammar lacks, when they hold no parentheses", async (c) => {
    if (!t.my) return c.skip("no MySQL at 127.0.0.1:3306");
    const reply = await t.call("query", { name: t.my.name, statement: "show variables like 'version'" });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const [result] = reply.body.results;
    assert.equal(result.error ?? "", "");
    assert.equal(result.rows[0].values[0].stringValue, "version");
  });

  it("on MySQL, nextval of a sequence is refused by the read-only transaction", async (c) => {
    if (!t.my) return c.skip("no MySQL at 127.0.0.1:3306");
    const [result] = (await t.call("query", { name: t.my.name, statement: "select nextval(seq)" })).body.results;
    assert.match(result.error, /READ ONLY transaction/);
  });
});
