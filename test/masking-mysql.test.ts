// Query results masked (contract §19.2) on MariaDB, as on PostgreSQL: each
// algorithm of SEMANTIC_TYPES and a classification matched by a rule, column
// names in any case, through table aliases, output aliases, `*` and `t.*`,
// conservatively for expressions, subqueries and unions; a masked column in
// WHERE, JOIN ON, GROUP BY, ORDER BY or HAVING refused, and so is a predicate
// the tracer cannot place; exemptions and their expiry; tables and databases
// without a marked column untouched.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { markPerson, patchPolicy, PERSON, querierOfProject, storeMaskingSchemes } from "./helpers/masking.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";

type Json = Record<string, any>;
const EXEMPTIONS = "projects/mask/policies/MASKING_EXEMPTION";
const MD5 = createHash("md5").update("pepperalice@example.com").digest("hex");

describe("masked Query results on MariaDB", () => {
  let t: SqlTargets;
  let querier: string;
  const query = (statement: string) => t.call("query", { name: t.my!.name, statement }, querier);
  const values = (reply: { body: Json }) => reply.body.results[0].rows.map((r: Json) => r.values.map((v: Json) => v.stringValue ?? v.int64Value ?? null));
  const refused = async (statement: string, message: RegExp) => {
    const reply = await query(statement);
    assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"], statement);
    assert.match(reply.body.message, message, statement);
  };
  const exempt = (exemption: Json) => patchPolicy(t, EXEMPTIONS, { maskingExemptionPolicy: { exemptions: [{ members: ["user:login_id=querier"], ...exemption }] } });

  before(async () => {
    t = await startSqlTargets([], () => [
      ...PERSON,
      "create table note (id int, person_id int, label text)",
      "insert into note values (7, 1, 'about')",
    ]);
    assert.ok(t.my, "a MariaDB answers at 127.0.0.1:3306");
    await storeMaskingSchemes(t);
    querier = await querierOfProject(t, "mask", [t.my.name]);
    const unmasked = await query("select name, email from person where email like 'a%' order by name");
    assert.deepEqual(values(unmasked), [["Alice", "alice@example.com"]]);
    assert.deepEqual(unmasked.body.results[0].masked ?? [], []);
    await markPerson(t, t.my.name, "");
  });
  after(() => t?.close());

  it("masks each column with its algorithm, whatever the case of its name, and a classified one by the matching rule", async () => {
    const reply = await query("select id, Name, EMAIL, phone, card, city, code from person");
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(values(reply), [["1", "******", MD5, "**51234", "A******H", "##r##", "###"]]);
    const masked = reply.body.results[0].masked;
    assert.deepEqual(masked[0], {});
    assert.deepEqual(masked[2], { semanticType: "md5", reason: "semantic type md5" });
    assert.match(masked[6].reason, /classification 2 \(level secret\) matches masking rule secret/);
  });

  it("follows table and output aliases, `*` and `t.*`; shows constants and unmarked tables", async () => {
    assert.deepEqual(values(await query("select p.email as contact, p.id, 'x' as k from person p")), [[MD5, "1", "x"]]);
    assert.deepEqual(values(await query("select * from person"))[0].slice(0, 3), ["1", "******", MD5]);
    assert.deepEqual(values(await query("select n.label, p.* from note n join person p on p.id = n.person_id"))[0].slice(0, 4), ["about", "1", "******", MD5]);
    assert.deepEqual(values(await query("select * from note where label like 'a%' order by label")), [["7", "1", "about"]]);
  });

  it("masks whole what it cannot trace: expressions, subqueries, derived unions, unions", async () => {
    const cases: [string, string[]][] = [
      ["select concat(name, 'x') as shout, id from person", ["******", "1"]],
      ["select (select name from person limit 1) as n, id from person", ["******", "1"]],
      ["select d.name, d.id from (select name, id from person union all select label, id from note) d", ["******", "******"]],
      ["select name, id from person union all select label, id from note", ["******", "******"]],
    ];
    for (const [statement, expected] of cases) {
      const reply = await query(statement);
      assert.deepEqual(values(reply)[0], expected, statement);
      assert.match(reply.body.results[0].masked[0].reason, /cannot be traced/, statement);
    }
  });

  it("refuses a masked column in WHERE, JOIN ON, GROUP BY, ORDER BY or HAVING, wherever the SELECT sits", async () => {
    for (const statement of ["select id from person where email like 'a%'", "select n.id from note n join person p on p.name = n.label",
      "select count(*) from person group by phone", "select id from person order by p.card", "select id from person p order by p.card",
      "select count(*) from person group by id having max(city) > 'P'", "select id from note where person_id in (select id from person where name like 'A%')",
      "with c as (select id from person where EMAIL like 'a%') select count(*) from c", "select id from note join person using (name)"]) {
      await refused(statement, /is masked .* cannot be used in WHERE, JOIN ON, GROUP BY, ORDER BY or HAVING|cannot be traced/);
    }
    assert.equal((await query("select id from person where id = 1 group by id having count(*) > 0 order by id")).status, 200);
  });

  it("refuses a predicate it cannot place when the statement reads a masked column", async () => {
    for (const statement of ["select id from (select email as id from person union all select label from note) d where id like 'a%'", "select d.e from (select concat(email, '') as e from person) d order by d.e"]) {
      await refused(statement, /cannot be traced to its table, and the statement reads masked columns/);
    }
    assert.equal((await query("select id from (select id, label from note) d where label like 'a%'")).status, 200);
  });

  it("shows a column to an exempt caller until the exemption expires", async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    assert.equal((await exempt({ database: t.my!.name, table: "person", columns: ["name"], expireTime: future })).status, 200);
    assert.deepEqual(values(await query("select name, email from person where name = 'Alice'")), [["Alice", MD5]]);
    assert.equal((await exempt({ database: t.my!.name, expireTime: new Date(Date.now() - 1000).toISOString() })).status, 200);
    assert.deepEqual(values(await query("select name from person")), [["******"]]);
    assert.equal((await exempt({ database: t.my!.name })).status, 200);
    assert.deepEqual(values(await query("select name, code from person where email like 'a%'")), [["Alice", "XY12"]]);
  });
});
