// Masking's tracing on both engines (contract §19.2): a masked column cannot
// be grouped or sorted on under its output alias or its ordinal, nor filtered
// on inside a CTE, a derived table or a set operation; a predicate column the
// tracer cannot place refuses a statement that reads a masked column (and
// passes one that does not); what a derived table's `*` shows is masked; a
// column is followed through CTEs and derived tables that project it, under
// their names and column lists, and CTE names are scoped as the server
// scopes them.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { markPerson, PERSON, querierOfProject, storeMaskingSchemes } from "./helpers/masking.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";

type Json = Record<string, any>;
const NOTE = ["create table note (id int, person_id int, label text)", "insert into note values (7, 1, 'about')"];

describe("masking's tracing on PostgreSQL and MariaDB", () => {
  let t: SqlTargets;
  let querier: string;
  const targets = () => [{ engine: "PostgreSQL", name: t.pg.name }, { engine: "MariaDB", name: t.my!.name }];
  const everywhere = async (statement: string, check: (reply: { status: number; body: Json }, where: string) => void) => {
    for (const target of targets()) check(await t.call("query", { name: target.name, statement }, querier), `${target.engine}: ${statement}`);
  };
  const refusedEverywhere = (statements: string[], message: RegExp) =>
    Promise.all(statements.map((statement) => everywhere(statement, (reply, where) => {
      assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"], where);
      assert.match(reply.body.message, message, where);
    })));

  before(async () => {
    t = await startSqlTargets([...PERSON, ...NOTE], () => [...PERSON, ...NOTE]);
    assert.ok(t.my, "a MariaDB answers at 127.0.0.1:3306");
    await storeMaskingSchemes(t);
    querier = await querierOfProject(t, "mask", [t.pg.name, t.my.name]);
    await markPerson(t, t.pg.name, "public");
    await markPerson(t, t.my.name, "");
  });
  after(() => t?.close());

  it("refuses grouping or sorting on a masked column's output alias or ordinal", async () => {
    const statements = ["select email as e from person order by e", "select email as e, count(*) from person group by e", "select id, email from person order by 2",
      "select name, count(*) from person group by 1", "select phone as p, count(*) from person group by id, phone having p > '0'"];
    await refusedEverywhere(statements, /column "(email|name|phone)" is masked .* cannot be used in WHERE, JOIN ON, GROUP BY, ORDER BY or HAVING/);
    for (const statement of ["select id as i from person order by i", "select id, name from person order by 1", "select id as i, count(*) from person group by 1"]) {
      await everywhere(statement, (reply, where) => assert.equal(reply.status, 200, `${where} ${JSON.stringify(reply.body)}`));
    }
  });

  it("refuses a masked column filtered on inside a CTE, a derived table or a set operation", async () => {
    const statements = ["with c as (select id from person where email like 'a%') select count(*) from c",
      "select count(*) from (select id from person where name like 'A%') d", "select id from note union select id from person where card like 'A%'"];
    await refusedEverywhere(statements, /column "(email|name|card)" is masked/);
  });

  it("refuses a predicate it cannot place when the statement reads a masked column, and passes one that reads none", async () => {
    const statements = ["select id from person order by q.email", "select id from (select email as id from person union all select label from note) d where id like 'a%'",
      "select d.e from (select upper(email) as e from person) d order by d.e", "select email as a from person union all select 'x' order by a"];
    await refusedEverywhere(statements, /cannot be traced to its table, and the statement reads masked columns/);
    const free = ["select l from (select label as l from note) d where l like 'a%' order by l", "select label from note union select label from note order by 1"];
    for (const statement of free) await everywhere(statement, (reply, where) => assert.deepEqual([reply.status, reply.body.results?.[0].rows.length], [200, 1], where));
  });

  it("masks what a derived table's `*` shows", async () => {
    await everywhere("select * from (select email as x, id from person) d", (reply, where) => {
      assert.equal(reply.status, 200, where);
      assert.deepEqual(reply.body.results[0].rows[0].values.map((v: Json) => v.stringValue), ["******", "******"], where);
      assert.match(reply.body.results[0].masked[0].reason, /cannot be traced/, where);
    });
  });

  it("follows a column through CTEs and derived tables that project it, and masks it by its own algorithm", async () => {
    const md5 = createHash("md5").update("pepperalice@example.com").digest("hex");
    const cases: [string, string[], string][] = [
      ["with c as (select email as e, id from person) select c.e, id from c", [md5, "1"], "semantic type md5"],
      ["select d.e, d.i from (select name as e, id as i from person) d", ["******", "1"], "semantic type full"],
      ["select x.a, x.i from (select c.e as a, c.id as i from (select city as e, id from person) c) x", ["##r##", "1"], "semantic type outer"],
      ["with c (a, b) as (select phone, id from person) select a, b from c", ["**51234", "1"], "semantic type range"],
      ["with c as (select card from person), d as (select card as k from c) select k, 'x' as n from d", ["A******H", "x"], "semantic type inner"],
    ];
    for (const [statement, expected, reason] of cases) {
      await everywhere(statement, (reply, where) => {
        assert.equal(reply.status, 200, `${where} ${JSON.stringify(reply.body)}`);
        assert.deepEqual(reply.body.results[0].rows[0].values.map((v: Json) => v.stringValue ?? v.int64Value), expected, where);
        assert.deepEqual(reply.body.results[0].masked[0], { semanticType: reason.split(" ").at(-1), reason }, where);
        assert.deepEqual(reply.body.results[0].masked[1] ?? {}, {}, where);
      });
    }
  });

  it("refuses a masked column filtered on under a CTE's or derived table's name, and lets others through", async () => {
    await refusedEverywhere(["with c as (select email as e, id from person) select id from c where e like 'a%'", "select d.i from (select id as i, name as n from person) d order by d.n",
      "select count(*) from (select phone as p from person) d group by p"], /column "(email|name|phone)" is masked/);
    const allowed = ["with c as (select email as e, id as i from person) select e from c where i = 1", "select d.e from (select email as e, id from person) d order by d.id"];
    for (const statement of allowed) await everywhere(statement, (reply, where) => assert.deepEqual([reply.status, reply.body.results?.[0].rows.length], [200, 1], `${where} ${JSON.stringify(reply.body)}`));
  });

  it("reads a CTE's own name inside it, a sibling's CTE and a correlated derived column as what they are", async () => {
    // Without RECURSIVE, `person` inside the CTE person is the table.
    await everywhere("with person as (select email from person) select email from person", (reply, where) => {
      assert.equal(reply.status, 200, where);
      assert.notEqual(reply.body.results[0].rows[0].values[0].stringValue, "alice@example.com", where);
    });
    const pg = async (statement: string) => t.call("query", { name: t.pg.name, statement }, querier);
    const sibling = await pg("select (with person as (select 1 as email) select count(*) from person) as n, (select count(*) from person where email like 'a%') as m");
    assert.deepEqual([sibling.status, sibling.body.code], [400, "invalid_argument"], JSON.stringify(sibling.body));
    assert.match(sibling.body.message, /column "email" is masked/);
    for (const [target, from] of [[t.pg.name, ""], [t.my!.name, " from dual"]] as const) {
      const correlated = await t.call("query", { name: target, statement: `select id from (select email as e, id from person) d where exists (select 1${from} where e like 'a%')` }, querier);
      assert.deepEqual([correlated.status, correlated.body.code], [400, "invalid_argument"], `${target} ${JSON.stringify(correlated.body)}`);
    }
  });
});
