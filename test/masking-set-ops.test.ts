// Masking refuses what compares masked values across rows (contract §19.2):
// a set operation other than UNION ALL over a masked output (its row count
// tells how many values differ or match), GROUP_CONCAT ordered by a masked
// column; and a MySQL table of another database is an unknown relation,
// never matched to this database's table of the same name.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { markPerson, PERSON, querierOfProject, storeMaskingSchemes } from "./helpers/masking.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";

type Json = Record<string, any>;
const SET_OP_REFUSED = /column "(email|name|card)" is masked .* cannot be used in .*UNION, INTERSECT, EXCEPT/;

describe("masking of set operations and other databases' tables", () => {
  let t: SqlTargets;
  let querier: string;
  let other: string;
  const ask = (engine: "pg" | "my", statement: string) => t.call("query", { name: t[engine]!.name, statement }, querier);
  const expectRefused = async (engine: "pg" | "my", statement: string, message: RegExp) => {
    const reply = await ask(engine, statement);
    assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"], `${engine}: ${statement} ${JSON.stringify(reply.body)}`);
    assert.match(reply.body.message, message, `${engine}: ${statement}`);
  };
  const firstRow = async (engine: "pg" | "my", statement: string): Promise<{ values: string[]; masked: Json }> => {
    const reply = await ask(engine, statement);
    assert.equal(reply.status, 200, `${engine}: ${statement} ${JSON.stringify(reply.body)}`);
    const result = reply.body.results[0];
    return { values: result.rows[0].values.map((v: Json) => v.stringValue ?? String(v.int32Value ?? v.int64Value)), masked: result.masked };
  };

  before(async () => {
    t = await startSqlTargets(PERSON, (database) => {
      other = `${database}_other`;
      return [...PERSON, `create database ${other}`, `create table ${other}.person (id int, email text)`, `insert into ${other}.person values (7, 'bob@example.com')`];
    });
    assert.ok(t.my, "a MariaDB answers at 127.0.0.1:3306");
    await storeMaskingSchemes(t);
    querier = await querierOfProject(t, "setops", [t.pg.name, t.my.name]);
    await markPerson(t, t.pg.name, "public");
    await markPerson(t, t.my.name, "");
  });
  after(async () => {
    await t?.my?.query(`drop database if exists ${other}`);
    await t?.close();
  });

  it("refuses UNION, INTERSECT and EXCEPT over a masked output on both engines", async () => {
    const statements = ["select email from person union select email from person", "select id, name from person intersect select 1, 'Alice'",
      "select card from person except select 'ABCDEFGH'"];
    for (const engine of ["pg", "my"] as const) for (const statement of statements) await expectRefused(engine, statement, SET_OP_REFUSED);
    // MySQL: a later UNION DISTINCT de-duplicates the UNION ALL before it.
    await expectRefused("my", "select email from person union all select email from person union distinct select 'x'", SET_OP_REFUSED);
    // PostgreSQL: a nested UNION under a UNION ALL still de-duplicates; INTERSECT ALL / EXCEPT ALL still match masked values against the other member.
    await expectRefused("pg", "select 1 union all (select email from person union select email from person)", SET_OP_REFUSED);
    await expectRefused("pg", "select email from person intersect all select 'alice@example.com'", SET_OP_REFUSED);
  });

  it("lets UNION ALL, and a UNION over unmasked columns, run with their outputs masked whole", async () => {
    for (const engine of ["pg", "my"] as const) {
      const all = await firstRow(engine, "select email from person union all select email from person");
      assert.equal(all.values[0], "******", engine);
      assert.match(all.masked[0].reason, /traced/, engine);
      // The UNION ran: it compares no masked column (its untraced output is masked, as every set operation's is).
      assert.deepEqual((await firstRow(engine, "select id from person union select id from person")).values, ["******"], engine);
    }
  });

  it("refuses GROUP_CONCAT ordered by a masked column on MySQL", async () => {
    await expectRefused("my", "select group_concat(id order by email separator ',') from person", /column "email" is masked/);
    assert.equal((await firstRow("my", "select group_concat(id order by id) from person")).values.length, 1);
  });

  it("reads a table of another MySQL database as an unknown relation", async () => {
    const read = await firstRow("my", `select id, email from ${other}.person`);
    assert.deepEqual(read.values, ["******", "******"]);
    assert.match(read.masked[1].reason, /unknown relation/);
    await expectRefused("my", `select id from ${other}.person where email like 'b%'`, /unknown relation/);
    // The same table named with this database's name is this database's: masked by its own algorithm.
    assert.equal((await firstRow("my", `select email from ${t.my!.database}.person`)).masked[0].semanticType, "md5");
  });
});
