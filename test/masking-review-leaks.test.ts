// Masking leaks closed (contract §19.2): the target's message for a statement
// reading masked columns is withheld (in Query, Export's refusal and the query
// history); Explain of such a statement is refused, analyze or not; a MySQL
// `schema` (USE) of another database makes its tables unknown relations; an
// INNER mask hides a value too short to keep a middle.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { maskOf } from "../shared/sql-editor/masking/masking-algorithms.ts";
import { markPerson, PERSON, querierOfProject, storeMaskingSchemes } from "./helpers/masking.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";

type Json = Record<string, any>;
const WITHHELD = "the statement failed; the database's message is withheld because it may show masked values";
const CAST_FAILS = { pg: "select email::int from person", my: "select extractvalue(1, concat(0x7e, email)) from person" };

describe("masking leaks through messages, plans and the MySQL schema", () => {
  let t: SqlTargets;
  let querier: string;
  let other: string;
  const nameOf = (engine: "pg" | "my") => t[engine]!.name;
  const ask = (engine: "pg" | "my", body: Json) => t.call("query", { name: nameOf(engine), ...body }, querier);
  const history = async (statement: string) =>
    ((await t.rest<Json>("GET", `/v1/queryHistories?filter=${encodeURIComponent(`statement:"${statement}"`)}`, { token: t.admin })).body.queryHistories ?? []) as Json[];

  before(async () => {
    t = await startSqlTargets(PERSON, (database) => {
      other = `${database}_use`;
      return [...PERSON, `create database ${other}`, `create table ${other}.person (id int, secret text)`, `insert into ${other}.person values (1, 'TOPSECRET')`];
    });
    assert.ok(t.my, "a MariaDB answers at 127.0.0.1:3306");
    await storeMaskingSchemes(t);
    querier = await querierOfProject(t, "review", [t.pg.name, t.my.name]);
    await markPerson(t, t.pg.name, "public");
    await markPerson(t, t.my.name, "");
    const bindings = [{ role: "roles/projectQuerier", members: ["user:login_id=querier"] }, { role: "roles/projectExporter", members: ["user:login_id=querier"] }];
    assert.equal((await t.rest("POST", "/v1/projects/review:setIamPolicy", { token: t.admin, body: { policy: { bindings } } })).status, 200);
  });
  after(async () => {
    await t?.my?.query(`drop database if exists ${other}`);
    await t?.close();
  });

  it("withholds the target's message of a statement reading masked columns, in Query and in the history", async () => {
    for (const engine of ["pg", "my"] as const) {
      const reply = await ask(engine, { statement: CAST_FAILS[engine] });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(reply.body.results[0].error, WITHHELD, engine);
      const [entry] = await history(CAST_FAILS[engine]);
      assert.equal(entry?.error, WITHHELD, `${engine} history`);
    }
    const plain = await ask("pg", { statement: "select 'x'::int" });
    assert.match(plain.body.results[0].error, /invalid input syntax for type integer: "x"/, "a statement reading nothing masked keeps its message");
  });

  it("withholds it in Export's refusal", async () => {
    const res = await fetch(`${t.app.baseUrl}/v1/sql:export`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${querier}` },
      body: JSON.stringify({ name: t.pg.name, statement: CAST_FAILS.pg, format: "CSV" }),
    });
    const text = await res.text();
    assert.equal(res.status, 400, text);
    assert.ok(text.includes(WITHHELD), text);
    assert.ok(!text.includes("alice@example.com"), text);
  });

  it("refuses Explain of a statement reading masked columns, analyze or not, and explains others", async () => {
    for (const engine of ["pg", "my"] as const) {
      for (const analyze of [false, true]) {
        const reply = await t.call("explain", { name: nameOf(engine), statement: "select email from person", analyze }, querier);
        assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"], `${engine} ${analyze} ${JSON.stringify(reply.body)}`);
        assert.match(reply.body.message, /reads columns masked for you.*Explain is refused/);
      }
      const filtered = await t.call("explain", { name: nameOf(engine), statement: "select 1 from person where email = 'alice@example.com'", analyze: true }, querier);
      assert.deepEqual([filtered.status, filtered.body.code], [400, "invalid_argument"], `${engine} ${JSON.stringify(filtered.body)}`);
      const unmasked = await t.call("explain", { name: nameOf(engine), statement: "select 1" }, querier);
      assert.equal(unmasked.status, 200, `${engine} ${JSON.stringify(unmasked.body)}`);
    }
  });

  it("reads a MySQL schema of another database as unknown relations: masked whole, predicates refused", async () => {
    const shown = await ask("my", { statement: "select secret from person", schema: other });
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    assert.equal(shown.body.results[0].rows[0].values[0].stringValue, "******");
    const filtered = await ask("my", { statement: "select id from person where secret like 'TOP%'", schema: other });
    assert.deepEqual([filtered.status, filtered.body.code], [400, "invalid_argument"], JSON.stringify(filtered.body));
    const own = await ask("my", { statement: "select card from person", schema: t.my!.name.split("/").pop() });
    assert.equal(own.body.results[0].rows[0].values[0].stringValue, "A******H", "the database's own schema masks as usual");
  });

  it("masks a value no longer than INNER's prefix and suffix whole", () => {
    const inner = maskOf({ id: "i", algorithm: { mask: { case: "innerOuterMask", value: { prefixLen: 2, suffixLen: 1, type: 1, substitution: "*" } } } } as any);
    assert.equal(inner("abc"), "***");
    assert.equal(inner("abcd"), "ab*d");
  });
});
