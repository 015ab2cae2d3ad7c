// Releases (contract §13.1): files kept in version order with their sha256
// computed by the server, versions unique, immutable except the title, soft
// deletion, keyset paging; CheckRelease runs the plan-check engine on real
// targets now; CreatePlanFromRelease makes one spec per file for the targets
// that do not record its version yet.
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { PlanService } from "../shared/gen/svc/v1/plan_service_pb.js";
import { CheckReleaseResponse_RiskLevel, Release_File_ChangeType, ReleaseService } from "../shared/gen/svc/v1/release_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { connectMysql, createInstanceOk, createPgTarget, mysqlAdminSource, pgAdminSource, uniqueName } from "./helpers/instances.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;
type File = { path: string; version: string; statement: string; changeType?: string; type?: string; sha256?: string };

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const file = (version: string, statement = `select ${JSON.stringify(version)};`, path = `migrations/${version}.sql`): File => ({ path, version, statement });

describe("releases", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token = { admin: "", dev: "", viewer: "" };
  const cleanups: (() => Promise<unknown>)[] = [];
  const call = async (method: string, path: string, body?: unknown, as = token.admin) => rest<Json>(method, path, { token: as, body });
  const sql = (text: string) => adminQuery(text, app.database.url);
  const connect = () => createClient(ReleaseService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
  const asAdmin = () => ({ headers: { authorization: `Bearer ${token.admin}` } });
  const createRelease = async (release: Json, project = "rel", query = "", as = token.admin) => {
    const reply = await call("POST", `/v1/projects/${project}/releases${query}`, release, as);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };
  /** A database of project `rel` on a fresh PostgreSQL target (registered without a sync: no worker runs here). */
  const pgDatabase = async (instance: string, statements: string[] = []) => {
    const target = await createPgTarget(statements);
    cleanups.push(target.drop);
    await createInstanceOk(rest, token.admin, instance, { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    await sql(`insert into instance_database (instance_id, name, project_id) values ('${instance}', '${target.name}', 'rel')`);
    return { name: `instances/${instance}/databases/${target.name}`, query: target.query };
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    await makeUser(app.db, "dev");
    await makeUser(app.db, "viewer");
    token.admin = await signInFirstAdmin(rest);
    token.dev = await signIn(rest, "dev");
    token.viewer = await signIn(rest, "viewer");
    for (const id of ["rel", "other", "paging"]) assert.equal((await call("POST", `/v1/projects?projectId=${id}`, {})).status, 200);
    const policy = await call("POST", "/v1/projects/rel:setIamPolicy", {
      policy: { bindings: [
        { role: "roles/projectOwner", members: ["user:login_id=admin"] },
        { role: "roles/projectDeveloper", members: ["user:login_id=dev"] },
        { role: "roles/projectViewer", members: ["user:login_id=viewer"] },
      ] },
    });
    assert.equal(policy.status, 200, JSON.stringify(policy.body));
  });
  after(async () => {
    await app.close();
    for (const cleanup of cleanups) await cleanup();
  });

  it("keeps files in version order with their sha256 computed, and audits the create", async () => {
    const statements = { "1.10": "create table ten (id int primary key);", "1.2": "select 'é';", "1.9.1": "select 191;", "2": "select 2;", "1.2.a": "select 'a';" };
    const files = Object.entries(statements).map(([version, statement]) => ({ ...file(version, statement), sha256: "ignored", changeType: version === "2" ? "DATA" : undefined }));
    const release = await createRelease({ title: " First ", files, vcsSource: { url: "https://git.example.com/app", commit: "abc123" } }, "rel", "?releaseId=first");
    assert.equal(release.name, "projects/rel/releases/first");
    assert.deepEqual(release.files.map((f: Json) => f.version), ["1.2", "1.2.a", "1.9.1", "1.10", "2"]);
    for (const stored of release.files as Json[]) {
      assert.equal(stored.sha256, sha256(statements[stored.version as keyof typeof statements]), stored.version);
      assert.equal(stored.type, "VERSIONED");
      assert.equal(stored.changeType, stored.version === "2" ? "DATA" : "MIGRATE");
    }
    assert.deepEqual([release.title, release.state, release.creator, release.vcsSource], ["First", "ACTIVE", "users/admin", { url: "https://git.example.com/app", commit: "abc123" }]);
    const audit = await sql(`select action from audit_log where resource = 'projects/rel/releases/first'`);
    assert.deepEqual(audit.rows.map((r) => r.action), ["bb.releases.create"]);

    const numbered = await createRelease({ files: [file("1")] }, "rel", "", token.dev);
    assert.match(numbered.name, /^projects\/rel\/releases\/[1-9][0-9]*$/);
    const taken = await call("POST", "/v1/projects/rel/releases?releaseId=first", { files: [file("1")] });
    assert.deepEqual([taken.status, taken.body.code], [409, "already_exists"]);
    const byViewer = await call("POST", "/v1/projects/rel/releases", { files: [file("1")] }, token.viewer);
    assert.deepEqual([byViewer.status, byViewer.body.message], [403, "permission bb.releases.create required on projects/rel"]);
  });

  it("refuses duplicate and malformed versions, missing fields and oversized statements, naming them", async () => {
    const cases: [Json, RegExp][] = [
      [{ files: [file("1.2"), file("1.1"), file("1.2", "select 'again';")] }, /^release\.files: version 1\.2 is given twice$/],
      [{ files: [file("1.2"), file("1.02")] }, /^release\.files: versions 1\.2 and 1\.02 are the same version$/],
      [{ files: [file("1..2")] }, /^release\.files\[0\]\.version: "1\.\.2" is not a valid version/],
      [{ files: [file("")] }, /^release\.files\[0\]\.version: "" is not a valid version/],
      [{ files: [file("1"), { ...file("2"), path: " " }] }, /^release\.files\[1\]\.path: is required$/],
      [{ files: [file("1", "  ")] }, /^release\.files\[0\]\.statement: is required$/],
      [{ files: [file("1", "x".repeat(2 * 1024 * 1024 + 1))] }, /^release\.files\[0\]\.statement: too long: 2097153 bytes, at most 2097152 accepted$/],
      [{ files: [] }, /^release\.files: a release needs at least one file$/],
    ];
    for (const [body, message] of cases) {
      const reply = await call("POST", "/v1/projects/rel/releases", body);
      assert.equal(reply.body.code, "invalid_argument", JSON.stringify(reply.body).slice(0, 300));
      assert.match(reply.body.message, message);
    }
    assert.equal((await call("POST", "/v1/projects/rel/releases?releaseId=Bad_Id", { files: [file("1")] })).body.code, "invalid_argument");
    assert.equal((await call("POST", "/v1/projects/nowhere/releases", { files: [file("1")] })).body.code, "not_found");
  });

  it("answers a retried create with the same request id with the first release", async () => {
    const requestId = randomUUID();
    const [a, b] = (await Promise.all([1, 2].map(() => createRelease({ title: "once", files: [file("1")] }, "rel", `?requestId=${requestId}`)))) as [Json, Json];
    assert.equal(a.name, b.name);
    const byDev = await createRelease({ title: "once", files: [file("1")] }, "rel", `?requestId=${requestId}`, token.dev);
    assert.notEqual(byDev.name, a.name);
    assert.equal((await call("POST", "/v1/projects/rel/releases?requestId=nope", { files: [file("1")] })).body.code, "invalid_argument");
  });

  it("changes only the title: a mask naming files, vcs_source or state is refused", async () => {
    const release = await createRelease({ title: "Before", files: [file("1", "select 1;")] });
    const patched = await call("PATCH", `/v1/${release.name}?updateMask=title`, { title: "After", files: [file("9", "drop table everything;")] });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual([patched.body.title, patched.body.files.map((f: Json) => f.statement)], ["After", ["select 1;"]]);
    const refusals: [string, string][] = [
      ["files", "update_mask: files cannot change: a release is immutable except its title"],
      ["release.files", "update_mask: release.files cannot change: a release is immutable except its title"],
      ["vcsSource", "update_mask: vcsSource cannot change: a release is immutable except its title"],
      ["state", "update_mask: field state is output only"],
      ["", "update_mask is required; editable fields: title"],
    ];
    for (const [mask, message] of refusals) {
      const reply = await call("PATCH", `/v1/${release.name}?updateMask=${mask}`, { files: [file("9")], state: "DELETED" });
      assert.deepEqual([reply.body.code, reply.body.message], ["invalid_argument", message]);
    }
    const viaConnect = await connect().updateRelease({ release: { name: release.name, title: "Connect" }, updateMask: { paths: ["title"] } }, asAdmin());
    assert.deepEqual([viaConnect.title, viaConnect.files.map((f) => f.statement)], ["Connect", ["select 1;"]]);
    const audit = await sql(`select action from audit_log where resource = '${release.name}' order by id`);
    assert.deepEqual(audit.rows.map((r) => r.action), ["bb.releases.create", ...Array(7).fill("bb.releases.update")]);
  });

  it("soft-deletes and undeletes, hiding deleted releases from lists unless asked", async () => {
    const release = await createRelease({ title: "short-lived", files: [file("1")] });
    assert.equal((await call("DELETE", `/v1/${release.name}`)).status, 200);
    assert.equal((await call("GET", `/v1/${release.name}`)).body.state, "DELETED");
    const listed = async (query: string) => (await call("GET", `/v1/projects/rel/releases?pageSize=1000&${query}`)).body.releases?.map((r: Json) => r.name) ?? [];
    assert.ok(!(await listed("")).includes(release.name));
    assert.ok((await listed("showDeleted=true")).includes(release.name));
    assert.equal((await call("DELETE", `/v1/${release.name}`)).body.code, "not_found");
    const renamed = await call("PATCH", `/v1/${release.name}?updateMask=title`, { title: "x" });
    assert.equal(renamed.body.code, "failed_precondition");
    const restored = await call("POST", `/v1/${release.name}:undelete`, {});
    assert.deepEqual([restored.status, restored.body.state], [200, "ACTIVE"]);
    assert.equal((await call("POST", `/v1/${release.name}:undelete`, {})).body.code, "failed_precondition");
    assert.ok((await listed("")).includes(release.name));
    const audit = await sql(`select action from audit_log where resource = '${release.name}' and status_code = 'ok' order by id`);
    assert.deepEqual(audit.rows.map((r) => r.action), ["bb.releases.create", "bb.releases.delete", "bb.releases.undelete"]);
    assert.equal((await call("GET", "/v1/projects/rel/releases/nothing-here")).body.code, "not_found");
    assert.equal((await call("GET", "/v1/projects/rel/releases/Not_A_Name")).body.code, "invalid_argument");
  });

  it("pages newest first without repeats, and filters by title and create_time", async () => {
    const names: string[] = [];
    for (let i = 0; i < 5; i++) names.push((await createRelease({ title: `Paged ${i}`, files: [file("1")] }, "paging")).name);
    const seen: string[] = [];
    let pageToken = "";
    do {
      const page = await call("GET", `/v1/projects/paging/releases?pageSize=2&pageToken=${pageToken}`);
      assert.ok(page.body.releases.length <= 2);
      seen.push(...page.body.releases.map((r: Json) => r.name));
      pageToken = page.body.nextPageToken ?? "";
    } while (pageToken);
    assert.deepEqual(seen, [...names].reverse());
    const titled = await call("GET", `/v1/projects/paging/releases?filter=${encodeURIComponent('title:"paged 3"')}`);
    assert.deepEqual(titled.body.releases.map((r: Json) => r.name), [names[3]]);
    // Times answer in milliseconds: from the fourth's (rounded down), the fourth and fifth.
    const created = (await call("GET", `/v1/${names[3]}`)).body.createTime;
    const later = await call("GET", `/v1/projects/paging/releases?filter=${encodeURIComponent(`create_time >= "${created}"`)}`);
    assert.deepEqual(later.body.releases.map((r: Json) => r.name), [names[4], names[3]]);
    const bad = await call("GET", `/v1/projects/paging/releases?filter=${encodeURIComponent("creator:me")}`);
    assert.equal(bad.body.code, "invalid_argument");
    const foreign = await call("GET", `/v1/projects/rel/releases?pageSize=1&pageToken=${encodeURIComponent((await call("GET", "/v1/projects/paging/releases?pageSize=1")).body.nextPageToken)}`);
    assert.deepEqual([foreign.body.code, foreign.body.message], ["invalid_argument", "page_token does not belong to this query"]);
  });

  it("checks a release on a PostgreSQL target now: review advice, a dry-run error, affected rows and the risk level", async () => {
    const target = await pgDatabase("pg-check", [
      "create table employee (id integer primary key, name text not null)",
      "insert into employee select n, 'e' || n from generate_series(1, 300) n",
      "analyze employee",
    ]);
    const files = [file("2", "insert into missing_table values (1);"), file("1", "update employee set name = 'x';")];
    const reply = await call("POST", "/v1/projects/rel/releases:check", { release: { files }, targets: [target.name] }, token.dev);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const { results, affectedRows, riskLevel } = reply.body;
    assert.deepEqual(results.map((r: Json) => [r.version, r.file, r.target]), [["1", "migrations/1.sql", target.name], ["2", "migrations/2.sql", target.name]]);
    const noWhere = results[0].advices.find((a: Json) => a.code === "statement.where-required-update-delete");
    assert.deepEqual([noWhere?.type, noWhere?.status, noWhere?.line], ["STATEMENT_ADVISE", "WARNING", 1], JSON.stringify(results[0].advices));
    const dryRun = results[1].advices.find((a: Json) => a.type === "DRY_RUN");
    assert.deepEqual([dryRun.status, dryRun.code], ["ERROR", "dry-run-failed"]);
    assert.match(dryRun.content, /missing_table/);
    assert.ok(Number(affectedRows) >= 300, `affectedRows ${affectedRows}`);
    assert.equal(riskLevel, "HIGH");
    const unchanged = (await target.query("select count(*)::int as n from employee where name = 'x'")) as { rows: Json[] };
    assert.equal(unchanged.rows[0]!.n, 0, "the check changed nothing on the target");

    // A stored release by name, over Connect: a harmless file is LOW risk.
    const stored = await createRelease({ files: [file("1", "select 1;")] });
    const viaConnect = await connect().checkRelease({ parent: "projects/rel", release: { name: stored.name }, targets: [target.name] }, asAdmin());
    assert.deepEqual(viaConnect.results.map((r) => r.advices.map((a) => a.code)), [["ok", "summary", "ok"]]);
    assert.equal(viaConnect.riskLevel, CheckReleaseResponse_RiskLevel.LOW);

    const refusals: [Json, string, RegExp][] = [
      [{ release: { files }, targets: [] }, "invalid_argument", /^targets: at least one target database is required$/],
      [{ release: { files }, targets: ["instances/pg-check/databases/nope"] }, "invalid_argument", /is not an active database/],
      [{ release: { name: stored.name, files }, targets: [target.name] }, "invalid_argument", /not both/],
      [{ release: {}, targets: [target.name] }, "invalid_argument", /^release\.files: a release needs at least one file$/],
      [{ release: { name: "projects/other/releases/1" }, targets: [target.name] }, "invalid_argument", /is not a release of projects\/rel/],
    ];
    for (const [body, code, message] of refusals) {
      const refused = await call("POST", "/v1/projects/rel/releases:check", body);
      assert.deepEqual([refused.body.code, message.test(refused.body.message)], [code, true], JSON.stringify(refused.body));
    }
    const byViewer = await call("POST", "/v1/projects/rel/releases:check", { release: { files }, targets: [target.name] }, token.viewer);
    assert.deepEqual([byViewer.status, byViewer.body.message], [403, "permission bb.releases.check required on projects/rel"]);
    const outsider = await createInstanceOk(rest, token.admin, "pg-outside", { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    assert.ok(outsider.name);
    await sql(`insert into instance_database (instance_id, name, project_id) values ('pg-outside', 'postgres', 'other')`);
    const foreign = await call("POST", "/v1/projects/rel/releases:check", { release: { files }, targets: ["instances/pg-outside/databases/postgres"] });
    assert.deepEqual([foreign.body.code, foreign.body.message], ["invalid_argument", "target instances/pg-outside/databases/postgres belongs to projects/other, not to projects/rel"]);
  });

  it("checks a MariaDB/MySQL target: review advice and a dry-run error, changing nothing", async (t) => {
    const connection = await connectMysql();
    if (!connection) return t.skip("no MariaDB/MySQL answers at 127.0.0.1:3306");
    const schema = uniqueName("rel");
    await connection.query(`create database ${schema}`);
    await connection.query(`create table ${schema}.item (id int primary key, label varchar(20) not null) engine=InnoDB`);
    await connection.query(`insert into ${schema}.item values (1, 'a'), (2, 'b')`);
    cleanups.push(async () => {
      await connection.query(`drop database if exists ${schema}`);
      await connection.end();
    });
    await createInstanceOk(rest, token.admin, "my-check", { engine: "MYSQL", environment: "environments/test", dataSources: [mysqlAdminSource()] });
    await sql(`insert into instance_database (instance_id, name, project_id) values ('my-check', '${schema}', 'rel')`);
    const target = `instances/my-check/databases/${schema}`;
    const reply = await call("POST", "/v1/projects/rel/releases:check", {
      release: { files: [file("1", "delete from item;"), file("2", "alter table item drop column nothing_here;")] },
      targets: [target],
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const [first, second] = reply.body.results as Json[];
    assert.ok(first!.advices.some((a: Json) => a.code === "statement.where-required-update-delete"), JSON.stringify(first!.advices));
    const dryRun = second!.advices.find((a: Json) => a.type === "DRY_RUN" && a.status === "ERROR");
    assert.match(dryRun?.content ?? "", /nothing_here/, JSON.stringify(second!.advices));
    assert.equal(reply.body.riskLevel, "HIGH");
    const [rows] = (await connection.query(`select count(*) as n from ${schema}.item`)) as [Json[], unknown];
    assert.equal(Number(rows[0]!.n), 2, "the check deleted nothing");
  });

  it("makes a plan of the files each target has not applied yet, in version order, each spec naming its release file", async () => {
    const a = await pgDatabase("pg-plan-a");
    const b = await pgDatabase("pg-plan-b");
    const files = [file("1.1", "create table two (id int primary key);"), file("1.0", "create table one (id int primary key);", "db/one.sql")];
    const release = await createRelease({ title: "Tables", files });
    const baseline = await call("POST", `/v1/${a.name}/revisions`, { release: release.name, file: "db/one.sql" });
    assert.equal(baseline.status, 200, JSON.stringify(baseline.body));

    const made = await call("POST", `/v1/${release.name}:createPlan`, { targets: [a.name, b.name] }, token.dev);
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const plan = made.body;
    assert.equal(plan.title, "Apply Tables");
    assert.deepEqual(
      plan.specs.map((s: Json) => [s.changeDatabaseConfig.targets, s.changeDatabaseConfig.statement, s.releaseSource]),
      [
        [[b.name], files[1]!.statement, { release: release.name, file: "db/one.sql", version: "1.0", sha256: sha256(files[1]!.statement) }],
        [[a.name, b.name], files[0]!.statement, { release: release.name, file: "migrations/1.1.sql", version: "1.1", sha256: sha256(files[0]!.statement) }],
      ],
    );
    assert.deepEqual((await call("GET", `/v1/${plan.name}`)).body.specs.map((s: Json) => s.releaseSource.version), ["1.0", "1.1"], "the plan keeps the release files");
    assert.deepEqual(plan.specs[0].releaseFile, { release: release.name, path: "db/one.sql", version: "1.0", sha256: sha256(files[1]!.statement) }, "the deprecated name, still answered");
    const planViaConnect = await createClient(PlanService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" })).getPlan(
      { name: plan.name },
      { headers: { authorization: `Bearer ${token.admin}` } },
    );
    assert.deepEqual(planViaConnect.specs.map((s) => [s.releaseSource?.release, s.releaseSource?.file]), [[release.name, "db/one.sql"], [release.name, "migrations/1.1.sql"]]);
    const audit = await sql(`select action, actor from audit_log where resource = '${plan.name}'`);
    assert.deepEqual(audit.rows.map((r) => [r.action, r.actor]), [["bb.plans.create", "users/dev"]]);
    const runs = await call("GET", `/v1/${plan.name}/planCheckRuns`);
    assert.equal(runs.body.planCheckRuns?.length, 1, "the plan's checks started");

    for (const target of [a.name, b.name]) {
      for (const f of release.files as Json[]) {
        if (target === a.name && f.version === "1.0") continue;
        assert.equal((await call("POST", `/v1/${target}/revisions`, { release: release.name, file: f.path })).status, 200);
      }
    }
    const nothing = await call("POST", `/v1/${release.name}:createPlan`, { targets: [a.name, b.name], title: "again" });
    assert.deepEqual([nothing.body.code, nothing.body.message], ["failed_precondition", `nothing to apply: every file of ${release.name} is already applied to the given targets`]);

    const changed = await createRelease({ files: [file("1.0", "create table one (id bigint primary key);"), file("1.2", "select 12;")] });
    const mismatch = await call("POST", `/v1/${changed.name}:createPlan`, { targets: [a.name] });
    assert.equal(mismatch.body.code, "failed_precondition");
    assert.match(mismatch.body.message, new RegExp(`^version 1\\.0 was applied to ${a.name} with a different checksum \\(${baseline.body.name}\\)$`));

    const viaConnect = await connect()
      .createPlanFromRelease({ name: changed.name, targets: [b.name + "x"] }, asAdmin())
      .catch((e: unknown) => ConnectError.from(e));
    assert.equal((viaConnect as ConnectError).code, Code.InvalidArgument);
    const byViewer = await call("POST", `/v1/${release.name}:createPlan`, { targets: [a.name] }, token.viewer);
    assert.deepEqual([byViewer.status, byViewer.body.message], [403, "permission bb.plans.create required on projects/rel"]);
    await call("DELETE", `/v1/${changed.name}`);
    assert.equal((await call("POST", `/v1/${changed.name}:createPlan`, { targets: [b.name] })).body.code, "failed_precondition");
  });

  it("leaves out of a check the files a target records with the same checksum, and flags another checksum", async () => {
    const target = await pgDatabase("pg-applied", ["create table t (id int primary key)"]);
    const release = await createRelease({ files: [file("1", "select 1;"), file("2", "select 2;")] });
    await call("POST", `/v1/${target.name}/revisions`, { release: release.name, file: "migrations/1.sql" });
    await call("POST", `/v1/${target.name}/revisions`, { version: "2", sha256: sha256("select 'other';") });
    const reply = await connect().checkRelease({ parent: "projects/rel", release: { name: release.name }, targets: [target.name] }, asAdmin());
    assert.deepEqual(reply.results.map((r) => [r.version, r.advices.map((a) => a.code)]), [["2", ["checksum-mismatch"]]]);
    assert.equal(reply.riskLevel, CheckReleaseResponse_RiskLevel.HIGH);
    const created = await connect().createRelease({ parent: "projects/rel", release: { files: [{ path: "a.sql", version: "3", statement: "select 3;", changeType: Release_File_ChangeType.DATA }] } }, asAdmin());
    assert.deepEqual([created.files[0]!.sha256, created.files[0]!.changeType], [sha256("select 3;"), Release_File_ChangeType.DATA]);
  });
});
