// Revisions (contract §13.2): baselines recorded by hand (a version, or a
// release file), one live revision per version and database, reading and
// paging newest first, audited deletion after which the version no longer
// counts; and the gate and record a release-sourced task run uses, against
// the real store.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { RevisionService } from "../shared/gen/svc/v1/revision_service_pb.js";
import { recordRevision, releaseGate } from "../shared/change/revision/revision-gate.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const DB = "instances/rev-pg/databases/app";
const OTHER_DB = "instances/rev-pg/databases/other";

describe("revisions", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token = { admin: "", viewer: "", outsider: "" };
  const call = async (method: string, path: string, body?: unknown, as = token.admin) => rest<Json>(method, path, { token: as, body });
  const sql = (text: string) => adminQuery(text, app.database.url);
  const baseline = async (database: string, revision: Json) => {
    const reply = await call("POST", `/v1/${database}/revisions`, revision);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    await makeUser(app.db, "viewer");
    await makeUser(app.db, "outsider");
    token.admin = await signInFirstAdmin(rest);
    token.viewer = await signIn(rest, "viewer");
    token.outsider = await signIn(rest, "outsider");
    for (const id of ["rev", "elsewhere"]) assert.equal((await call("POST", `/v1/projects?projectId=${id}`, {})).status, 200);
    await call("POST", "/v1/projects/rev:setIamPolicy", {
      policy: { bindings: [
        { role: "roles/projectOwner", members: ["user:login_id=admin"] },
        { role: "roles/projectViewer", members: ["user:login_id=viewer"] },
      ] },
    });
    // The outsider is a plain workspace member: it sees no project.
    await sql(`insert into instance (id, engine, environment) values ('rev-pg', 'POSTGRES', 'test');
               insert into instance_database (instance_id, name, project_id) values ('rev-pg', 'app', 'rev'), ('rev-pg', 'other', 'rev')`);
  });
  after(() => app.close());

  it("records a baseline by version, reads it back, and audits it", async () => {
    const sum = sha256("create table a (id int);");
    const revision = await baseline(DB, { version: "1.0", sha256: sum.toUpperCase(), file: "a.sql", creator: "users/someone", taskRun: "x" });
    assert.match(revision.name, new RegExp(`^${DB}/revisions/[1-9][0-9]*$`));
    assert.deepEqual(
      [revision.version, revision.sha256, revision.file, revision.release ?? "", revision.taskRun ?? "", revision.creator, revision.deleted ?? false],
      ["1.0", sum, "a.sql", "", "", "users/admin", false],
    );
    assert.deepEqual((await call("GET", `/v1/${revision.name}`)).body, revision);
    const audit = await sql(`select action, resource from audit_log where action = 'bb.revisions.create' and status_code = 'ok'`);
    assert.deepEqual(audit.rows.map((r) => r.resource), [revision.name]);
    const client = createClient(RevisionService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const got = await client.getRevision({ name: revision.name }, { headers: { authorization: `Bearer ${token.viewer}` } });
    assert.deepEqual([got.version, got.sha256], ["1.0", sum]);
    const elsewhere = await call("GET", `/v1/${OTHER_DB}/revisions/${revision.name.split("/").pop()}`);
    assert.equal(elsewhere.body.code, "not_found", "a revision is read under its own database only");
  });

  it("takes version and sha256 from a release file of the database's project", async () => {
    const release = await call("POST", "/v1/projects/rev/releases", { files: [{ path: "db/v2.sql", version: "2.0", statement: "select 2;" }] });
    assert.equal(release.status, 200, JSON.stringify(release.body));
    const revision = await baseline(OTHER_DB, { release: release.body.name, file: "db/v2.sql" });
    assert.deepEqual([revision.release, revision.file, revision.version, revision.sha256], [release.body.name, "db/v2.sql", "2.0", sha256("select 2;")]);
    const foreign = await call("POST", "/v1/projects/elsewhere/releases", { files: [{ path: "x.sql", version: "9", statement: "select 9;" }] });
    const cases: [Json, RegExp][] = [
      [{ release: release.body.name, file: "missing.sql" }, /^revision\.file: "projects\/rev\/releases\/\d+" has no file "missing\.sql"$/],
      [{ release: release.body.name }, /^revision\.file: the path of a file of the release is required$/],
      [{ release: release.body.name, file: "db/v2.sql", version: "3" }, /^revision\.version: the file's version is 2\.0, not 3$/],
      [{ release: foreign.body.name, file: "x.sql" }, /is not a release of projects\/rev, which holds the database$/],
      [{ version: "1..0", sha256: sha256("x") }, /^revision\.version: "1\.\.0" is not a valid version/],
      [{ version: "4", sha256: "abc" }, /^revision\.sha256: "abc" is not a hex SHA-256/],
    ];
    for (const [body, message] of cases) {
      const reply = await call("POST", `/v1/${DB}/revisions`, body);
      assert.equal(reply.body.code, "invalid_argument", JSON.stringify(reply.body));
      assert.match(reply.body.message, message);
    }
    assert.equal((await call("POST", "/v1/instances/rev-pg/databases/nope/revisions", { version: "1", sha256: sha256("x") })).body.code, "not_found");
  });

  it("refuses a second live revision of a version, until the first is deleted (audited)", async () => {
    const first = await baseline(DB, { version: "5", sha256: sha256("five") });
    const again = await call("POST", `/v1/${DB}/revisions`, { version: "5", sha256: sha256("five, edited") });
    assert.deepEqual([again.status, again.body.code, again.body.message], [409, "already_exists", `version 5 is already recorded for ${DB} (${first.name})`]);

    const byViewer = await call("DELETE", `/v1/${first.name}`, undefined, token.viewer);
    assert.deepEqual([byViewer.status, byViewer.body.message], [403, "permission bb.revisions.delete required on projects/rev"]);
    assert.equal((await call("DELETE", `/v1/${first.name}`)).status, 200);
    const deleted = (await call("GET", `/v1/${first.name}`)).body;
    assert.equal(deleted.deleted, true);
    assert.ok(deleted.deleteTime);
    assert.equal((await call("DELETE", `/v1/${first.name}`)).body.code, "not_found");
    const audit = await sql(`select actor, status_code from audit_log where action = 'bb.revisions.delete' and resource = '${first.name}' order by id`);
    assert.deepEqual(audit.rows.map((r) => [r.actor, r.status_code]), [["users/viewer", "permission_denied"], ["users/admin", "ok"], ["users/admin", "not_found"]]);

    const second = await baseline(DB, { version: "5", sha256: sha256("five, edited") });
    assert.notEqual(second.name, first.name);
  });

  it("lists a database's revisions newest first, page by page, with version and create_time filters", async () => {
    const database = "instances/rev-pg/databases/listed";
    await sql(`insert into instance_database (instance_id, name, project_id) values ('rev-pg', 'listed', 'rev')`);
    const names: string[] = [];
    for (const version of ["1", "2", "3", "4", "5"]) names.push((await baseline(database, { version, sha256: sha256(version) })).name);
    await call("DELETE", `/v1/${names[1]}`);
    const seen: string[] = [];
    let pageToken = "";
    do {
      const page = await call("GET", `/v1/${database}/revisions?pageSize=2&pageToken=${pageToken}`, undefined, token.viewer);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      seen.push(...page.body.revisions.map((r: Json) => r.name));
      pageToken = page.body.nextPageToken ?? "";
    } while (pageToken);
    assert.deepEqual(seen, [names[4], names[3], names[2], names[0]]);
    const all = await call("GET", `/v1/${database}/revisions?showDeleted=true`);
    assert.deepEqual(all.body.revisions.map((r: Json) => r.name), [...names].reverse());
    const byVersion = await call("GET", `/v1/${database}/revisions?filter=${encodeURIComponent("version = 3")}`);
    assert.deepEqual(byVersion.body.revisions.map((r: Json) => r.name), [names[2]]);
    // Times answer in milliseconds: from the fourth's (rounded down), the fourth and fifth.
    const created = (await call("GET", `/v1/${names[3]}`)).body.createTime;
    const later = await call("GET", `/v1/${database}/revisions?filter=${encodeURIComponent(`create_time >= "${created}"`)}`);
    assert.deepEqual(later.body.revisions.map((r: Json) => r.name), [names[4], names[3]]);
    assert.equal((await call("GET", `/v1/${database}/revisions?filter=${encodeURIComponent("file:x")}`)).body.code, "invalid_argument");
    assert.equal((await call("GET", "/v1/instances/rev-pg/databases/nope/revisions")).body.code, "not_found");
    const hidden = await call("GET", `/v1/${database}/revisions`, undefined, token.outsider);
    assert.deepEqual([hidden.status, hidden.body.code], [404, "not_found"]);
    const create = await call("POST", `/v1/${database}/revisions`, { version: "9", sha256: sha256("9") }, token.viewer);
    assert.deepEqual([create.status, create.body.message], [403, "permission bb.revisions.create required on projects/rev"]);
  });

  it("gates a release-sourced task: apply, skip the same checksum, refuse another; records the run's revision without overwriting", async () => {
    const run = await taskRun(app, "rev", DB);
    const releaseFile = { release: "projects/rev/releases/77", path: "db/7.sql", version: "7.0", sha256: sha256("seven") };
    const target = { instanceId: "rev-pg", databaseName: "app", releaseFile };
    assert.deepEqual(await releaseGate(app.db, target), { kind: "apply" });

    const recorded = await app.db.transaction((tx) => recordRevision(tx, { ...target, taskRunId: run.id, creator: "users/admin" }));
    assert.equal(recorded.kind, "recorded");
    const revision = (await call("GET", `/v1/${DB}/revisions/${recorded.revision.id}`)).body;
    assert.deepEqual(
      [revision.release, revision.file, revision.version, revision.sha256, revision.taskRun],
      [releaseFile.release, "db/7.sql", "7.0", releaseFile.sha256, `projects/rev/rollouts/${run.rolloutId}/tasks/${run.taskId}/taskRuns/${run.id}`],
    );

    assert.deepEqual(await releaseGate(app.db, target), { kind: "skip", reason: "already applied (version 7.0)" });
    const edited = { ...target, releaseFile: { ...releaseFile, sha256: sha256("seven, edited") } };
    assert.deepEqual(await releaseGate(app.db, edited), { kind: "refuse", message: "version 7.0 was applied with a different checksum" });
    assert.deepEqual(await releaseGate(app.db, { ...target, databaseName: "other" }), { kind: "apply" }, "revisions count per database");

    // A version recorded meanwhile (here: already) is kept, never overwritten.
    const kept = await app.db.transaction((tx) => recordRevision(tx, { ...edited, taskRunId: run.id, creator: "users/admin" }));
    assert.equal(kept.kind, "kept");
    assert.equal(kept.revision.id, recorded.revision.id);
    assert.equal(kept.kind === "kept" && kept.message, `version 7.0 was recorded meanwhile with a different checksum (${releaseFile.sha256}) as ${revision.name}; it is kept and no revision was recorded for this run`);
    assert.equal((await call("GET", `/v1/${revision.name}`)).body.sha256, releaseFile.sha256);

    // Two runs recording the same version at once: one revision, the other kept.
    await call("DELETE", `/v1/${revision.name}`);
    assert.deepEqual(await releaseGate(app.db, target), { kind: "apply" }, "a deleted revision no longer counts");
    const outcomes = await Promise.all([1, 2].map(() => app.db.transaction((tx) => recordRevision(tx, { ...target, taskRunId: run.id, creator: "users/admin" }))));
    assert.deepEqual(outcomes.map((o) => o.kind).sort(), ["kept", "recorded"]);
    const live = await sql(`select count(*)::int as n from revision where instance_id = 'rev-pg' and database_name = 'app' and version = '7.0' and delete_time is null`);
    assert.equal(live.rows[0].n, 1);

    const refused = await createClient(RevisionService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }))
      .createRevision({ parent: DB, revision: { version: "7.0", sha256: releaseFile.sha256 } }, { headers: { authorization: `Bearer ${token.admin}` } })
      .catch((e: unknown) => ConnectError.from(e));
    assert.equal((refused as ConnectError).code, Code.AlreadyExists);
  });
});

/** A task run of a rollout of a one-spec plan on the database, written straight into the store. */
async function taskRun(app: TestApp, projectId: string, database: string): Promise<{ id: number; taskId: number; rolloutId: string }> {
  const [, instanceId, , name] = database.split("/");
  const result = await adminQuery(
    `with p as (insert into plan (project_id, creator) values ('${projectId}', 'users/admin') returning id),
          r as (insert into rollout (project_id, plan_id, creator) select '${projectId}', id, 'users/admin' from p returning id),
          s as (insert into stage (project_id, rollout_id, id, position) select '${projectId}', id, 'test', 0 from r returning rollout_id),
          t as (insert into task (project_id, rollout_id, stage_id, position, spec_id, instance_id, database_name, type, statement, statement_sha256)
                select '${projectId}', rollout_id, 'test', 0, 'spec', '${instanceId}', '${name}', 'DATABASE_MIGRATE', 'select 7', '' from s
                returning id, rollout_id)
     insert into task_run (task_id, project_id, rollout_id, creator) select id, '${projectId}', rollout_id, 'users/admin' from t
     returning id, task_id, rollout_id`,
    app.database.url,
  );
  const row = result.rows[0];
  return { id: Number(row.id), taskId: Number(row.task_id), rolloutId: row.rollout_id };
}
