// Query results masked (contract §19.2) on PostgreSQL: each algorithm of
// SEMANTIC_TYPES, a classification matched by a rule, through aliases and
// `*`, conservatively for expressions; predicates on masked columns refused;
// exemptions (and their expiry); a database with no marked column untouched.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ExportRequest_Format, SQLService } from "../shared/gen/svc/v1/sql_service_pb.js";
import { newAuditAtEnd } from "../shared/governance/index.ts";
import { explainStatement, exportStatement, queryDatabase } from "../shared/sql-editor/index.ts";
import { testSecrets } from "./helpers/instances.ts";
import { markPerson, patchPolicy, PERSON, querierOfProject, storeMaskingSchemes } from "./helpers/masking.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";

type Json = Record<string, any>;
const EXEMPTIONS = "projects/mask/policies/MASKING_EXEMPTION";

describe("masked Query results", () => {
  let t: SqlTargets;
  let querier: string;
  const query = async (statement: string, token = querier) => {
    const reply = await t.call("query", { name: t.pg.name, statement }, token);
    return reply;
  };
  const values = (reply: { body: Json }) => reply.body.results[0].rows.map((r: Json) => r.values.map((v: Json) => v.stringValue ?? v.int64Value ?? null));
  const exempt = (exemption: Json) => patchPolicy(t, EXEMPTIONS, { maskingExemptionPolicy: { exemptions: [{ members: ["user:login_id=querier"], ...exemption }] } });

  before(async () => {
    t = await startSqlTargets(PERSON, () => []);
    await storeMaskingSchemes(t);
    querier = await querierOfProject(t, "mask", [t.pg.name]);
    const unmasked = await query("select name, email from person");
    assert.deepEqual(values(unmasked), [["Alice", "alice@example.com"]]);
    assert.deepEqual(unmasked.body.results[0].masked ?? [], []);
    await markPerson(t, t.pg.name, "public");
  });
  after(() => t?.close());

  it("masks each column with its semantic type's algorithm, and a classified one by the matching rule", async () => {
    const reply = await query("select id, name, email, phone, card, city, code from person");
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const md5 = createHash("md5").update("pepperalice@example.com").digest("hex");
    assert.deepEqual(values(reply), [["1", "******", md5, "**51234", "A******H", "##r##", "###"]]);
    const masked = reply.body.results[0].masked;
    assert.deepEqual(masked[0], {});
    assert.deepEqual(masked[2], { semanticType: "md5", reason: "semantic type md5" });
    assert.match(masked[6].reason, /classification 2 \(level secret\) matches masking rule secret/);
  });

  it("follows aliases and `*`; masks expressions conservatively", async () => {
    const aliased = await query("select p.email as contact, p.id from person p");
    assert.equal(values(aliased)[0][0], createHash("md5").update("pepperalice@example.com").digest("hex"));
    assert.equal(values(aliased)[0][1], "1");
    const star = await query("select * from person");
    assert.deepEqual(values(star)[0].slice(0, 3), ["1", "******", createHash("md5").update("pepperalice@example.com").digest("hex")]);
    const expression = await query("select upper(name) || 'x' as shout, 1 as one from person");
    assert.deepEqual(values(expression), [["******", "1"]]);
    assert.match(expression.body.results[0].masked[0].reason, /cannot be traced/);
  });

  it("refuses a masked column in WHERE, JOIN ON or ORDER BY", async () => {
    for (const statement of ["select id from person where email like 'a%'", "select a.id from person a join person b on a.name = b.name", "select id from person order by phone"]) {
      const reply = await query(statement);
      assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"], statement);
      assert.match(reply.body.message, /is masked .* cannot be used in WHERE/);
    }
    assert.equal((await query("select id from person where id = 1")).status, 200);
  });

  it("masks in the capability's own reads: Query, Export and Explain called below the handlers", async () => {
    const deps = { db: t.app.db, settings: t.app.settings, secrets: testSecrets(), connections: t.app.readConnections };
    const read = { name: t.pg.name, statement: "select id, email from person", dataSourceId: "", schema: "", caller: "users/querier", signal: new AbortController().signal };
    const md5 = createHash("md5").update("pepperalice@example.com").digest("hex");
    const [result] = await queryDatabase(deps, newAuditAtEnd("test"), { ...read, limit: 0 });
    assert.deepEqual([result!.rows, result!.masked[1]], [[["1", md5]], { semanticType: "md5", reason: "semantic type md5" }]);
    const chunks = [];
    for await (const chunk of exportStatement(deps, newAuditAtEnd("test"), { ...read, format: "CSV", limit: 0n })) chunks.push(chunk);
    assert.equal(Buffer.concat(chunks.map((c) => c.bytes)).toString("utf8"), `id,email\r\n1,${md5}\r\n`);
    assert.deepEqual(chunks[0]!.masked, [{ semanticType: "", reason: "" }, { semanticType: "md5", reason: "semantic type md5" }]);
    await assert.rejects(explainStatement(deps, { ...read, analyze: false }), /reads columns masked for you/);
    await assert.rejects(queryDatabase(deps, newAuditAtEnd("test"), { ...read, statement: "select id from person where email = 'x'", limit: 0 }), /is masked/);
  });

  it("names an export's masked columns and why in the X-Svc-Masked-Columns header, over REST and Connect", async () => {
    const statement = "select id, name, email, upper(city) as c, phone as \"téléphone\" from person";
    const exported = async (text: string) => {
      const res = await fetch(`${t.app.baseUrl}/v1/sql:export`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${t.admin}` },
        body: JSON.stringify({ name: t.pg.name, statement: text, format: "CSV" }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      return { header: res.headers.get("x-svc-masked-columns"), csv: await res.text() };
    };
    const { header, csv } = await exported(statement);
    assert.match(header ?? "", /^[\x20-\x7e]+$/, "ASCII only");
    assert.deepEqual(JSON.parse(header!), [
      { columns: [1], semanticType: "full", reason: "semantic type full" },
      { columns: [2], semanticType: "md5", reason: "semantic type md5" },
      { columns: [3], semanticType: "", reason: "cannot be traced to one column, and the statement reads sensitive columns" },
      { columns: [4], semanticType: "range", reason: "semantic type range" },
    ]);
    assert.match(csv, /^id,name,email,c,téléphone\r\n1,\*\*\*\*\*\*,/);
    assert.equal((await exported("select id from person")).header, null, "nothing masked, no header");
    const client = createClient(SQLService, createConnectTransport({ baseUrl: t.app.baseUrl, httpVersion: "1.1" }));
    let connectHeader: string | null = null;
    const stream = client.export(
      { name: t.pg.name, statement: "select email from person", format: ExportRequest_Format.CSV },
      { headers: { authorization: `Bearer ${t.admin}` }, onHeader: (headers) => (connectHeader = headers.get("x-svc-masked-columns")) },
    );
    for await (const _ of stream) continue;
    assert.deepEqual(JSON.parse(connectHeader ?? "null"), [{ columns: [0], semanticType: "md5", reason: "semantic type md5" }]);
  });

  it("applies a rule whose condition names semantic types to the columns of those types, before their own algorithm", async () => {
    const rules = [{ id: "typed", condition: { environments: ["environments/test"], semanticTypes: ["md5", "range"] }, semanticType: "stars" }];
    assert.equal((await patchPolicy(t, "policies/MASKING_RULE", { maskingRulePolicy: { rules } })).status, 200);
    try {
      const reply = await query("select name, email, phone, code from person");
      assert.deepEqual(values(reply), [["******", "###", "###", "XY12"]]);
      assert.deepEqual(reply.body.results[0].masked[1], { semanticType: "stars", reason: "semantic type md5 matches masking rule typed" });
      const prod = [{ ...rules[0], condition: { ...rules[0]!.condition, environments: ["environments/prod"] } }];
      assert.equal((await patchPolicy(t, "policies/MASKING_RULE", { maskingRulePolicy: { rules: prod } })).status, 200);
      const md5 = createHash("md5").update("pepperalice@example.com").digest("hex");
      assert.deepEqual(values(await query("select email, code from person")), [[md5, "XY12"]]);
    } finally {
      await markPerson(t, t.pg.name, "public");
    }
  });

  it("shows a column to an exempt caller until the exemption expires", async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    assert.equal((await exempt({ database: t.pg.name, table: "person", columns: ["name"], expireTime: future })).status, 200);
    assert.deepEqual(values(await query("select name, email from person where name = 'Alice'"))[0].slice(0, 1), ["Alice"]);
    assert.notEqual(values(await query("select email from person"))[0][0], "alice@example.com");
    assert.equal((await exempt({ database: t.pg.name, expireTime: new Date(Date.now() - 1000).toISOString() })).status, 200);
    assert.deepEqual(values(await query("select name from person")), [["******"]]);
    assert.equal((await exempt({ database: t.pg.name })).status, 200);
    assert.deepEqual(values(await query("select name, code from person")), [["Alice", "XY12"]]);
  });
});
