// Masking rules and exemptions (contract §19.2): policies/MASKING_RULE and
// projects/<p>/policies/MASKING_EXEMPTION, read with bb.policies.get, written
// with bb.policies.update (securityOfficer holds it) and audited; every name
// they hold is checked.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { adminQuery } from "./helpers/db.ts";
import { patchPolicy, storeMaskingSchemes } from "./helpers/masking.ts";
import { signIn } from "./helpers/sessions.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";
import { makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;
const RULES = "policies/MASKING_RULE";
const EXEMPTIONS = "projects/masked/policies/MASKING_EXEMPTION";

describe("masking policies", () => {
  let t: SqlTargets;
  const tokens: Record<string, string> = {};
  const rule = (extra: Json = {}) => ({ id: "r1", condition: { classificationLevels: ["secret"] }, semanticType: "md5", ...extra });
  before(async () => {
    t = await startSqlTargets(["create table person (id int)"], () => []);
    await storeMaskingSchemes(t);
    assert.equal((await t.rest("POST", "/v1/projects?projectId=masked", { token: t.admin, body: { title: "masked" } })).status, 200);
    for (const login of ["officer", "member"]) await makeUser(t.app.db, login);
    const bindings = [
      { role: "roles/workspaceAdmin", members: ["user:login_id=admin"] },
      { role: "roles/securityOfficer", members: ["user:login_id=officer"] },
      { role: "roles/workspaceMember", members: ["user:login_id=member"] },
    ];
    assert.equal((await t.rest("POST", "/v1/workspaces/-:setIamPolicy", { token: t.admin, body: { policy: { bindings } } })).status, 200);
    for (const login of ["officer", "member"]) tokens[login] = await signIn(t.rest, login);
  });
  after(() => t?.close());

  it("reads an unwritten policy empty; the security officer writes rules, audited", async () => {
    const empty = await t.rest<Json>("GET", `/v1/${RULES}`, { token: tokens.officer });
    assert.deepEqual([empty.status, empty.body], [200, { name: RULES, maskingRulePolicy: {}, etag: "0" }]);
    const saved = await patchPolicy(t, RULES, { maskingRulePolicy: { rules: [rule()] } }, tokens.officer);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body.maskingRulePolicy.rules, [rule({ condition: { classificationLevels: ["secret"] } })]);
    const { rows } = await adminQuery("select resource, actor from audit_log where action = 'bb.policies.update' order by id desc limit 1", t.app.database.url);
    assert.equal(rows[0].resource, RULES);
    const stale = await patchPolicy(t, RULES, { maskingRulePolicy: { rules: [] }, etag: "stale" }, tokens.officer);
    assert.deepEqual([stale.status, stale.body.code], [409, "aborted"]);
  });

  it("makes a first write conditional over the etag an unwritten policy reads with: one of two first writers wins", async () => {
    assert.equal((await t.rest("POST", "/v1/projects?projectId=first", { token: t.admin, body: { title: "first" } })).status, 200);
    const name = "projects/first/policies/MASKING_EXEMPTION";
    const unwritten = await t.rest<Json>("GET", `/v1/${name}`, { token: tokens.officer });
    assert.equal(unwritten.body.etag, "0");
    const write = (reason: string) => patchPolicy(t, name, { maskingExemptionPolicy: { exemptions: [{ members: ["group:g"], reason }] }, etag: unwritten.body.etag });
    const replies = await Promise.all([write("one"), write("two")]);
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409], JSON.stringify(replies.map((r) => r.body)));
    const loser = replies.find((r) => r.status === 409)!;
    assert.match(loser.body.message, /etag 0 is stale/);
    const winner = replies.find((r) => r.status === 200)!;
    assert.notEqual(winner.body.etag, "0");
    assert.equal((await write("three")).status, 409, "the policy exists now: 0 is stale");
    assert.equal((await t.rest<Json>("GET", `/v1/${name}`, { token: tokens.officer })).body.maskingExemptionPolicy.exemptions[0].reason, winner.body.maskingExemptionPolicy.exemptions[0].reason);
  });

  it("refuses members without bb.policies.get / bb.policies.update", async () => {
    const read = await t.rest<Json>("GET", `/v1/${RULES}`, { token: tokens.member });
    assert.deepEqual([read.status, read.body.code], [403, "permission_denied"]);
    const write = await patchPolicy(t, EXEMPTIONS, { maskingExemptionPolicy: { exemptions: [] } }, tokens.member);
    assert.match(write.body.message, /bb\.policies\.update/);
  });

  it("refuses unknown semantic types, levels, environments and bad names", async () => {
    const cases: [Json, RegExp][] = [
      [rule({ semanticType: "nope" }), /rules\[0\]\.semanticType: "nope" is not in SEMANTIC_TYPES/],
      [rule({ condition: { classificationLevels: ["top"] } }), /classificationLevels: "top" is not in DATA_CLASSIFICATION/],
      [rule({ condition: { environments: ["environments/mars"] } }), /environments: "environments\/mars" is not in ENVIRONMENT/],
      [rule({ id: "" }), /rules\[0\]\.id must be set and unique/],
    ];
    for (const [bad, message] of cases) {
      const reply = await patchPolicy(t, RULES, { maskingRulePolicy: { rules: [bad] } });
      assert.deepEqual([reply.status, reply.body.code], [400, "invalid_argument"]);
      assert.match(reply.body.message, message);
    }
    const wrongKind = await patchPolicy(t, RULES, { maskingExemptionPolicy: { exemptions: [] } });
    assert.match(wrongKind.body.message, /holds a MASKING_RULE policy/);
    const unknownPolicy = await t.rest<Json>("GET", "/v1/policies/ROLLOUT", { token: t.admin });
    assert.deepEqual([unknownPolicy.status, unknownPolicy.body.code], [400, "invalid_argument"]);
  });

  it("stores a project's exemptions: members, a database of the project, an expiry", async () => {
    const exemption = { members: ["user:login_id=member"], database: t.pg.name, table: "person", columns: ["id"], expireTime: "2099-01-01T00:00:00Z", reason: "audit" };
    const outside = await patchPolicy(t, EXEMPTIONS, { maskingExemptionPolicy: { exemptions: [exemption] } });
    assert.match(outside.body.message, /is not in projects\/masked/);
    await t.rest("POST", "/v1/databases:transfer", { token: t.admin, body: { databases: [t.pg.name], targetProject: "projects/masked" } });
    const badMember = await patchPolicy(t, EXEMPTIONS, { maskingExemptionPolicy: { exemptions: [{ ...exemption, members: ["bob"] }] } });
    assert.match(badMember.body.message, /"bob" is not a member/);
    const saved = await patchPolicy(t, EXEMPTIONS, { maskingExemptionPolicy: { exemptions: [exemption] } }, tokens.officer);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const read = await t.rest<Json>("GET", `/v1/${EXEMPTIONS}`, { token: tokens.officer });
    assert.deepEqual(read.body.maskingExemptionPolicy.exemptions, [exemption]);
  });
});
