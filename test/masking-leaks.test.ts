// Masking fails closed where a masked value could leak on both engines
// (contract §19.2): a view (any relation the synced metadata does not list as
// a table) shows its columns masked and refuses predicates on them; a masked
// column cannot order or partition a window, nor be made DISTINCT.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { markPerson, PERSON, querierOfProject, storeMaskingSchemes } from "./helpers/masking.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";

type Json = Record<string, any>;
const SETUP = [...PERSON, "create view person_view as select id, email as contact from person", "create table note (id int, label text)", "insert into note values (1, 'about')"];
const MASKED = /column "(email|name|phone|card|city)" is masked .* cannot be used in .*(window|DISTINCT)/;

describe("masking's fail-closed forms on PostgreSQL and MariaDB", () => {
  let t: SqlTargets;
  let querier: string;
  const query = (name: string, statement: string) => t.call("query", { name, statement }, querier);
  const targets = () => [{ engine: "PostgreSQL", name: t.pg.name }, { engine: "MariaDB", name: t.my!.name }];
  const everywhere = async (statement: string, check: (reply: { status: number; body: Json }, where: string) => void, only = targets()) => {
    for (const target of only) check(await query(target.name, statement), `${target.engine}: ${statement}`);
  };
  const refused = (statements: string[], message: RegExp, only = targets()) =>
    Promise.all(statements.map((statement) => everywhere(statement, (reply, where) => {
      assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"], `${where} ${JSON.stringify(reply.body)}`);
      assert.match(reply.body.message, message, where);
    }, only)));
  const shown = (statement: string, values: unknown[], only = targets()) => everywhere(statement, (reply, where) => {
    assert.equal(reply.status, 200, `${where} ${JSON.stringify(reply.body)}`);
    assert.deepEqual(reply.body.results[0].rows[0].values.map((v: Json) => v.stringValue ?? String(v.int32Value ?? v.int64Value)), values, where);
  }, only);
  const postgres = () => [targets()[0]!];

  before(async () => {
    t = await startSqlTargets(SETUP, () => SETUP);
    assert.ok(t.my, "a MariaDB answers at 127.0.0.1:3306");
    await storeMaskingSchemes(t);
    querier = await querierOfProject(t, "leak", [t.pg.name, t.my.name]);
    await markPerson(t, t.pg.name, "public");
    await markPerson(t, t.my.name, "");
  });
  after(() => t?.close());

  it("masks every column read through a view, and says why", async () => {
    for (const statement of ["select * from person_view", "select contact, id from person_view", "select v.contact, v.id from person_view v"]) {
      await shown(statement, ["******", "******"]);
      await everywhere(statement, (reply, where) => assert.match(reply.body.results[0].masked[0].reason, /read through a view\/unknown relation/, where));
    }
    await shown("select label from note", ["about"]);
  });

  it("refuses a predicate on a view's column, alone or joined to a table", async () => {
    const statements = ["select id from person_view where contact like 'a%'", "select id from person_view order by contact",
      "select n.label from note n join person_view v on v.id = n.id", "select id, count(*) from person_view group by id"];
    await refused(statements, /read through a view or unknown relation, and cannot be traced to the columns it shows/);
  });

  it("treats a table created since the last sync as an unknown relation", async () => {
    await t.pg.query("create table person_copy as select * from person");
    await t.my!.query("create table person_copy as select * from person");
    await shown("select id, email from person_copy", ["******", "******"]);
    await refused(["select id from person_copy where email like 'a%'"], /unknown relation/);
  });

  it("refuses a masked column in a window's ORDER BY or PARTITION BY, inline or named", async () => {
    const statements = ["select row_number() over (order by email) from person", "select rank() over (partition by name order by id) from person",
      "select id, row_number() over w from person window w as (order by phone)", "select sum(id) over (partition by city) from person"];
    await refused(statements, MASKED);
    await refused(["select string_agg(id::text, ',' order by card) from person"], /column "card" is masked/, postgres());
    // Not refused: the window reads no masked column (its output, an expression, is masked as untraced).
    await shown("select id, row_number() over (partition by id order by id) from person", ["1", "******"]);
  });

  it("refuses DISTINCT and DISTINCT ON over a masked column", async () => {
    const statements = ["select distinct email from person", "select distinct id, card from person", "select count(*) from (select distinct name from person) d"];
    await refused(statements, MASKED);
    await refused(["select distinct on (phone) id from person", "select distinct on (e) id, email as e from person"], /column "(phone|email)" is masked/, postgres());
    await shown("select distinct id from person", ["1"]);
    await everywhere("select distinct on (id) id, email from person", (reply, where) => {
      assert.equal(reply.status, 200, where);
      assert.equal(reply.body.results[0].masked[1].semanticType, "md5", where);
    }, postgres());
  });
});
