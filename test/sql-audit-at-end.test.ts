// The SQL Editor's Query, Explain and Execute are audited at their end
// (audit_at_end, docs/decisions/0016): no store transaction is held while a
// target works, so more slow queries than the store's pool has connections
// leave the rest of the API answering at once; each call's record (and its
// query history entry) is still written — for a success, a refusal of
// permission, a target's refusal and a timeout.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { adminQuery } from "./helpers/db.ts";
import { eventually } from "./helpers/instances.ts";
import { signIn } from "./helpers/sessions.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";
import { makeUser } from "./helpers/users.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";

type Json = Record<string, any>;
type Verb = "query" | "explain" | "execute";

const SLEEP_S = 3;
/** How long a call that needs the store may take while the slow ones run. */
const PROMPT_MS = 1000;

describe("SQL Editor calls hold no store transaction while the target works", () => {
  let t: SqlTargets;
  let member = "";
  const post = (verb: Verb, body: Json, correlationId: string, token = t.admin) =>
    t.rest<Json>("POST", `/v1/sql:${verb}`, { token, body: { name: t.pg.name, ...body }, headers: { "x-correlation-id": correlationId } });
  const recordOf = async (correlationId: string) =>
    (await adminQuery(`select action, status_code, detail from audit_log where correlation_id = '${correlationId}'`, t.app.database.url)).rows as Json[];
  const history = async (statement: string) =>
    (await t.rest<Json>("GET", `/v1/queryHistories?filter=${encodeURIComponent(`statement:"${statement}"`)}`, { token: t.admin })).body.queryHistories ?? [];
  const storeCount = async (condition: string) =>
    (await adminQuery(`select count(*)::int as n from pg_stat_activity where datname = current_database() and ${condition}`, t.app.database.url)).rows[0].n as number;
  const targetRunning = async (marker: string) =>
    (await t.pg.query(`select count(*)::int as n from pg_stat_activity where query like '%${marker}%' and state = 'active' and pid <> pg_backend_pid()`))[0]!.n as number;

  before(async () => {
    t = await startSqlTargets(["create table items (id int)"], () => []);
    await makeUser(t.app.db, "member");
    const viewer = { role: "roles/projectViewer", members: ["user:login_id=member"] };
    const bound = await t.rest("POST", "/v1/projects/default:setIamPolicy", { token: t.admin, body: { policy: { bindings: [viewer] } } });
    assert.equal(bound.status, 200, JSON.stringify(bound.body));
    member = await signIn(t.rest, "member");
    await mergeWorkspaceProfile(t.app, { databaseChangeMode: "EDITOR" });
  });
  after(() => t?.close());

  it("runs more slow Query, Explain and Execute calls than the store pool has connections, while other calls answer promptly", async () => {
    const poolSize = t.app.db.configuration.maxPoolSize!;
    const verbs: Verb[] = ["query", "explain", "execute"];
    const slow = Array.from({ length: poolSize + 3 }, (_, i) => {
      const verb = verbs[i % verbs.length]!;
      const statement = `select pg_sleep(${SLEEP_S}) as held_marker_${i}`;
      return { verb, statement, id: `held-${i}`, reply: post(verb, { statement, analyze: verb === "explain" }, `held-${i}`) };
    });
    await eventually(async () => (await targetRunning("held_marker_")) === slow.length, 10_000);
    assert.equal(await storeCount("state like 'idle in transaction%'"), 0, "no store connection waits in a transaction for a target");

    const others: [string, () => Promise<{ status: number }>][] = [
      ["ListQueryHistories", () => t.rest("GET", "/v1/queryHistories", { token: t.admin })],
      ["GetProject", () => t.rest("GET", "/v1/projects/default", { token: t.admin })],
      ["Query", () => post("query", { statement: "select 1" }, "prompt-query")],
    ];
    for (const [name, call] of others) {
      const started = performance.now();
      const reply = await call();
      const elapsed = performance.now() - started;
      assert.equal(reply.status, 200, name);
      assert.ok(elapsed < PROMPT_MS, `${name} answered in ${Math.round(elapsed)} ms while ${slow.length} slow calls ran on a pool of ${poolSize}`);
    }
    assert.ok((await targetRunning("held_marker_")) > poolSize, "the slow calls were still running");

    for (const call of slow) {
      const reply = await call.reply;
      assert.equal(reply.status, 200, `${call.verb}: ${JSON.stringify(reply.body)}`);
      const [record] = await recordOf(call.id);
      assert.deepEqual([record?.action, record?.status_code, record?.detail.database], [`bb.sql.${call.verb}`, "ok", t.pg.name]);
      if (call.verb !== "explain") assert.equal((await history(call.statement)).length, 1, `${call.verb} kept in the history`);
    }
  });

  it("records a refusal of permission, with nothing in the history", async () => {
    const reply = await post("query", { statement: "select 'refused_marker'" }, "refused-query", member);
    assert.deepEqual([reply.status, reply.body.code], [403, "permission_denied"], JSON.stringify(reply.body));
    const [record] = await recordOf("refused-query");
    assert.deepEqual([record?.action, record?.status_code], ["bb.sql.query", "permission_denied"]);
    assert.deepEqual(await history("refused_marker"), []);
  });

  it("records the target's refusal of an explained statement", async () => {
    const reply = await post("explain", { statement: "select * from no_such_table" }, "refused-explain");
    assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"]);
    const [record] = await recordOf("refused-explain");
    assert.deepEqual([record?.status_code, record?.detail.database], ["invalid_argument", t.pg.name]);
  });

  it("records a query past query_timeout, with its history entry", async () => {
    await mergeWorkspaceProfile(t.app, { queryTimeout: "1s" });
    try {
      const reply = await post("query", { statement: "select pg_sleep(10) as timeout_marker" }, "timed-out-query");
      assert.deepEqual([reply.status, reply.body.code], [504, "deadline_exceeded"]);
      const [record] = await recordOf("timed-out-query");
      assert.deepEqual([record?.status_code, record?.detail.database, record?.detail.rowCount], ["deadline_exceeded", t.pg.name, 0]);
      const [entry] = await history("timeout_marker");
      assert.match(entry?.error ?? "", /query timeout \(1s\)/);
    } finally {
      await mergeWorkspaceProfile(t.app, { queryTimeout: "0s" });
    }
  });
});
