// Instances (contract §9.3, §9.4, §3.4, §7.7) against the tests' real
// PostgreSQL as the target: create tests the connection (validate-only
// stores nothing, an unreachable server is a clean failed_precondition),
// passwords are input-only, sealed at rest, kept when an update omits them
// and redacted in audit records; updates by mask; soft delete; list filters
// and paging; environments must exist and cannot be removed while used.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { sql as slonikSql } from "slonik";
import { z } from "zod";
import { DataSource_Type, Engine, Instance_State, InstanceService } from "../shared/gen/svc/v1/instance_service_pb.js";
import { withTransaction } from "../shared/platform/transaction.ts";
import { createSecretBox } from "../shared/platform/secrets/secret-box.ts";
import { resealStoredSecrets } from "../shared/governance/secret-key/sealed-values.store.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { closedPort, createInstanceOk, pgAdminSource, testSecrets } from "./helpers/instances.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;

describe("instances", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let token = "";
  const password = String(pgAdminSource().password);

  const call = (method: string, path: string, body?: unknown) => rest<Json>(method, path, { token, body });
  const sql = async (text: string) => (await adminQuery(text, app.database.url)).rows as Json[];
  const storedSources = async (id: string) => (await sql(`select data_sources from instance where id = '${id}'`))[0]?.data_sources as Json[] | undefined;
  const pgInstance = (overrides: Json = {}) => ({ title: "Main", engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()], ...overrides });
  const refusal = (reply: { status: number; body: Json }) => [reply.status, reply.body.code];
  const patch = (id: string, instance: Json, mask: string, query = "") =>
    call("PATCH", `/v1/instances/${id}?updateMask=${encodeURIComponent(mask)}${query}`, { ...instance, name: `instances/${id}` });
  const setEnvironments = (ids: string[]) =>
    call("PATCH", "/v1/settings/ENVIRONMENT?updateMask=environment.environments", {
      value: { environment: { environments: ids.map((id) => ({ id, rolloutPolicy: "MANUAL" })) } },
    });

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token = await signInFirstAdmin(rest);
  });
  after(() => app.close());

  it("creates an instance after testing its connection, never returns the password and seals it at rest", async () => {
    const created = await createInstanceOk(rest, token, "pg-main", pgInstance());
    assert.equal(created.name, "instances/pg-main");
    assert.deepEqual([created.title, created.engine, created.environment, created.state], ["Main", "POSTGRES", "environments/test", "ACTIVE"]);
    assert.match(String(created.engineVersion), /^\d+/);
    const { host, port, username } = pgAdminSource();
    assert.deepEqual(created.dataSources, [{ id: "admin", type: "ADMIN", host, port, username, passwordSet: true, sslMode: "DISABLE" }]);
    assert.ok(!JSON.stringify(created).includes(password));
    assert.deepEqual((await call("GET", "/v1/instances/pg-main")).body, created);

    const [stored] = (await storedSources("pg-main"))!;
    assert.match(stored!.password, /^sealed:v1:/);
    assert.ok(!JSON.stringify(await sql(`select * from instance where id = 'pg-main'`)).includes(password));
    const jobs = await sql(`select count(*)::int as n from graphile_worker.jobs where key = 'instance.sync:pg-main'`);
    assert.equal(jobs[0]!.n, 1, "a created instance is queued for its first sync");

    const [record] = await sql(`select actor, request, response from audit_log where action = 'bb.instances.create' and resource = 'instances/pg-main'`);
    assert.equal(record!.actor, "users/admin");
    assert.equal(JSON.parse(record!.request).instance.dataSources[0].password, "***");
    assert.ok(!`${record!.request}${record!.response}`.includes(password));
  });

  it("re-seals data-source passwords when the key rotates", async () => {
    const [current, next] = [testSecrets(), createSecretBox(randomBytes(32))];
    const sealed = (await storedSources("pg-main"))![0]!.password;
    await assert.rejects(
      withTransaction(app.db, async (tx) => {
        await resealStoredSecrets(tx, (value) => next.seal(current.open(value)));
        const resealed = await tx.oneFirst(slonikSql.type(z.object({ password: z.string() }))`
          select data_sources->0->>'password' as password from instance where id = 'pg-main'`);
        assert.notEqual(resealed, sealed);
        assert.equal(next.open(resealed), password);
        throw new Error("rolled back: the test server keeps its key");
      }),
      /rolled back/,
    );
  });

  it("answers over Connect as over REST", async () => {
    const transport = createConnectTransport({
      baseUrl: app.baseUrl,
      httpVersion: "1.1",
      interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${token}`), next(req))],
    });
    const client = createClient(InstanceService, transport);
    const source = pgAdminSource();
    const created = await client.createInstance({
      instanceId: "pg-connect",
      instance: {
        engine: Engine.POSTGRES,
        environment: "environments/prod",
        dataSources: [{ type: DataSource_Type.ADMIN, host: String(source.host), port: Number(source.port), username: String(source.username), password }],
      },
    });
    assert.deepEqual([created.name, created.title, created.state, created.dataSources[0]!.passwordSet, created.dataSources[0]!.password], [
      "instances/pg-connect", "pg-connect", Instance_State.ACTIVE, true, undefined,
    ]);
    const updated = await client.updateInstance({ instance: { name: "instances/pg-connect", title: "Over Connect" }, updateMask: { paths: ["title"] } });
    assert.equal(updated.title, "Over Connect");
    assert.equal((await client.getInstance({ name: "instances/pg-connect" })).title, "Over Connect");
    await client.deleteInstance({ name: "instances/pg-connect" });
    const listed = await client.listInstances({ filter: 'title:"over connect"', showDeleted: true });
    assert.deepEqual(listed.instances.map((i) => [i.name, i.state]), [["instances/pg-connect", Instance_State.DELETED]]);
    const missing = await client.getInstance({ name: "instances/none" }).catch((e: unknown) => ConnectError.from(e));
    assert.equal((missing as ConnectError).code, Code.NotFound);
  });

  it("validate-only tests the connection and stores nothing", async () => {
    const reply = await call("POST", "/v1/instances?instanceId=pg-dry&validateOnly=true", pgInstance({ title: "" }));
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual([reply.body.name, reply.body.title, reply.body.dataSources[0].passwordSet], ["instances/pg-dry", "pg-dry", true]);
    assert.match(reply.body.engineVersion, /^\d+/);
    assert.equal((await call("GET", "/v1/instances/pg-dry")).status, 404);
    assert.deepEqual(await sql(`select id from instance where id = 'pg-dry'`), []);
    assert.deepEqual(await sql(`select id from graphile_worker.jobs where key = 'instance.sync:pg-dry'`), []);
  });

  it("refuses an unreachable server with a clean failed_precondition and stores nothing", async () => {
    const port = await closedPort();
    for (const query of ["", "&validateOnly=true"]) {
      const reply = await call("POST", `/v1/instances?instanceId=pg-down${query}`, pgInstance({ dataSources: [pgAdminSource({ host: "127.0.0.1", port })] }));
      assert.deepEqual(refusal(reply), [400, "failed_precondition"], JSON.stringify(reply.body));
      assert.match(reply.body.message, new RegExp(`^instance\\.data_sources\\[0\\] \\("admin"\\): cannot connect to 127\\.0\\.0\\.1:${port}: connection refused`));
      assert.ok(!reply.body.message.includes(password));
    }
    assert.equal((await call("GET", "/v1/instances/pg-down")).status, 404);
  });

  it("refuses bad ids, engines, environments and data sources, naming the field", async () => {
    const admin = pgAdminSource();
    const cases: [string, Json, string, RegExp][] = [
      ["Bad-Id", pgInstance(), "invalid_argument", /^instance_id: "Bad-Id" is not a valid instance id/],
      ["pg-x", pgInstance({ engine: undefined }), "invalid_argument", /^instance\.engine is required/],
      ["pg-x", pgInstance({ environment: "" }), "invalid_argument", /^instance\.environment is required/],
      ["pg-x", pgInstance({ environment: "prod" }), "invalid_argument", /^instance\.environment: "prod" is not a valid name/],
      ["pg-x", pgInstance({ environment: "environments/nope" }), "invalid_argument", /not an environment of the ENVIRONMENT setting; known: environments\/test, environments\/prod$/],
      ["pg-x", pgInstance({ dataSources: [] }), "invalid_argument", /exactly one ADMIN data source, got 0/],
      ["pg-x", pgInstance({ dataSources: [admin, { ...admin, id: "second" }] }), "invalid_argument", /exactly one ADMIN data source, got 2/],
      ["pg-x", pgInstance({ dataSources: [admin, { ...admin, type: "READ_ONLY" }, { ...admin, type: "READ_ONLY", id: "ro2" }] }), "invalid_argument", /at most one READ_ONLY/],
      ["pg-x", pgInstance({ dataSources: [admin, { ...admin, type: "READ_ONLY", id: "admin" }] }), "invalid_argument", /data_sources\[1\]\.id: "admin" is used by another/],
      ["pg-x", pgInstance({ dataSources: [{ ...admin, type: undefined }] }), "invalid_argument", /data_sources\[0\]\.type is required/],
      ["pg-x", pgInstance({ dataSources: [{ ...admin, host: " " }] }), "invalid_argument", /data_sources\[0\]\.host is required/],
      ["pg-x", pgInstance({ dataSources: [{ ...admin, port: 70000 }] }), "invalid_argument", /data_sources\[0\]\.port must be between 1 and 65535/],
      ["pg-x", pgInstance({ dataSources: [{ ...admin, username: "" }] }), "invalid_argument", /data_sources\[0\]\.username is required/],
      ["pg-x", pgInstance({ dataSources: [{ ...admin, extraOptions: { colour: "blue" } }] }), "invalid_argument", /data_sources\[0\]\.extraOptions\.colour is not a known option/],
      ["pg-main", pgInstance(), "already_exists", /^instance "instances\/pg-main" already exists$/],
    ];
    for (const [id, instance, code, message] of cases) {
      const reply = await call("POST", `/v1/instances?instanceId=${id}`, instance);
      assert.equal(reply.body.code, code, `${JSON.stringify(instance)} → ${JSON.stringify(reply.body)}`);
      assert.match(reply.body.message, message);
    }
    assert.deepEqual(await sql(`select id from instance where id = 'pg-x'`), []);
  });

  it("updates by mask: a password left out is kept, an empty one clears it, new data sources are tested", async () => {
    const created = await createInstanceOk(rest, token, "pg-upd", pgInstance());
    const sealed = (await storedSources("pg-upd"))![0]!.password;

    const titled = await patch("pg-upd", { title: "Renamed" }, "title");
    assert.equal(titled.body.title, "Renamed");
    assert.notEqual(titled.body.etag, created.etag);
    assert.equal((await storedSources("pg-upd"))![0]!.password, sealed);

    const { password: _, ...withoutPassword } = pgAdminSource();
    const readOnly = { ...withoutPassword, type: "READ_ONLY" };
    const both = await patch("pg-upd", { dataSources: [{ ...withoutPassword, id: "admin" }, readOnly] }, "data_sources");
    assert.equal(both.status, 200, JSON.stringify(both.body));
    assert.deepEqual(both.body.dataSources.map((s: Json) => [s.id, s.type, s.passwordSet ?? false]), [["admin", "ADMIN", true], ["read-only", "READ_ONLY", false]]);
    assert.equal((await storedSources("pg-upd"))![0]!.password, sealed);

    const cleared = await patch("pg-upd", { dataSources: [{ ...withoutPassword, password: "" }] }, "dataSources");
    assert.deepEqual(cleared.body.dataSources.map((s: Json) => s.passwordSet ?? false), [false]);
    assert.equal((await storedSources("pg-upd"))![0]!.password, "");

    const port = await closedPort();
    const down = await patch("pg-upd", { dataSources: [{ ...withoutPassword, port }] }, "data_sources");
    assert.deepEqual(refusal(down), [400, "failed_precondition"]);
    assert.equal((await storedSources("pg-upd"))![0]!.port, withoutPassword.port);

    const dry = await patch("pg-upd", { title: "Not stored" }, "title", "&validateOnly=true");
    assert.equal(dry.body.title, "Not stored");
    assert.equal((await call("GET", "/v1/instances/pg-upd")).body.title, "Renamed");

    const withPassword = await patch("pg-upd", { dataSources: [pgAdminSource({ password: "another-Secret-77" })] }, "data_sources");
    assert.equal(withPassword.status, 200, JSON.stringify(withPassword.body));
    const records = await sql(`select request from audit_log where action = 'bb.instances.update' and resource = 'instances/pg-upd'`);
    assert.ok(records.length >= 5);
    assert.ok(records.every((r) => !r.request.includes("another-Secret-77")));
    assert.ok(records.some((r) => JSON.parse(r.request).instance.dataSources?.[0]?.password === "***"));
  });

  it("refuses masks naming output-only or fixed fields, and stale etags", async () => {
    const current = (await call("GET", "/v1/instances/pg-upd")).body;
    assert.deepEqual(refusal(await patch("pg-upd", { engine: "MYSQL" }, "engine")), [400, "invalid_argument"]);
    assert.match((await patch("pg-upd", {}, "state")).body.message, /field state is output only/);
    assert.match((await patch("pg-upd", {}, "")).body.message, /update_mask is required/);
    assert.match((await patch("pg-upd", { environment: "environments/nope" }, "environment")).body.message, /not an environment/);
    const moved = await patch("pg-upd", { environment: "environments/prod", etag: current.etag }, "environment");
    assert.equal(moved.body.environment, "environments/prod");
    assert.deepEqual(refusal(await patch("pg-upd", { title: "Late", etag: current.etag }, "title")), [409, "aborted"]);
  });

  it("deletes softly, hides deleted instances from lists unless asked, and restores them with a sync", async () => {
    await createInstanceOk(rest, token, "pg-gone", pgInstance({ title: "Gone soon" }));
    await sql(`insert into instance_database (instance_id, name) values ('pg-gone', 'appdb')`);
    assert.equal((await call("DELETE", "/v1/instances/pg-gone")).status, 200);
    assert.equal((await call("GET", "/v1/instances/pg-gone")).body.state, "DELETED");
    assert.deepEqual(await sql(`select state from instance_database where instance_id = 'pg-gone'`), [{ state: "DELETED" }]);
    assert.deepEqual((await call("GET", `/v1/instances?filter=${encodeURIComponent('title:"gone soon"')}`)).body.instances ?? [], []);
    assert.equal((await call("GET", `/v1/instances?showDeleted=true&filter=${encodeURIComponent('title:"gone soon"')}`)).body.instances.length, 1);
    assert.deepEqual(refusal(await call("DELETE", "/v1/instances/pg-gone")), [400, "failed_precondition"]);
    assert.deepEqual(refusal(await patch("pg-gone", { title: "x" }, "title")), [400, "failed_precondition"]);
    assert.deepEqual(refusal(await call("POST", "/v1/instances/pg-gone:sync", {})), [400, "failed_precondition"]);

    await sql(`delete from graphile_worker._private_jobs`);
    const restored = await call("POST", "/v1/instances/pg-gone:undelete", {});
    assert.equal(restored.body.state, "ACTIVE");
    assert.equal((await sql(`select count(*)::int as n from graphile_worker.jobs where key = 'instance.sync:pg-gone'`))[0]!.n, 1);
    assert.deepEqual(refusal(await call("POST", "/v1/instances/pg-gone:undelete", {})), [400, "failed_precondition"]);
    const actions = await sql(`select action from audit_log where resource = 'instances/pg-gone' order by id`);
    // Refusals are recorded too (contract §8.2).
    assert.deepEqual(actions.map((a) => a.action), [
      "bb.instances.create", "bb.instances.delete", "bb.instances.delete", "bb.instances.update", "bb.instances.sync", "bb.instances.undelete", "bb.instances.undelete",
    ]);
  });

  it("queues a sync on demand, once while one is waiting, and answers the instance", async () => {
    await sql(`delete from graphile_worker._private_jobs`);
    for (let i = 0; i < 2; i++) {
      const reply = await call("POST", "/v1/instances/pg-main:sync", {});
      assert.equal(reply.body.name, "instances/pg-main");
    }
    const jobs = await sql(`select key, queue_name from graphile_worker.jobs where task_identifier = 'instance.sync'`);
    assert.deepEqual(jobs, [{ key: "instance.sync:pg-main", queue_name: "instance.sync:pg-main" }]);
    assert.deepEqual(refusal(await call("POST", "/v1/instances/none:sync", {})), [404, "not_found"]);
  });

  it("lists newest first with filters and pages", async () => {
    for (const [id, env] of [["list-a", "test"], ["list-b", "prod"], ["list-c", "test"]] as const) {
      await createInstanceOk(rest, token, id, pgInstance({ title: `Listed ${id}`, environment: `environments/${env}` }));
    }
    const list = (query: string) => call("GET", `/v1/instances?${query}`);
    const names = (reply: { body: Json }) => (reply.body.instances ?? []).map((i: Json) => i.name);
    const listed = encodeURIComponent('title:"listed"');
    assert.deepEqual(names(await list(`filter=${listed}`)), ["instances/list-c", "instances/list-b", "instances/list-a"]);
    assert.deepEqual(names(await list(`filter=${listed}${encodeURIComponent(" AND environment=environments/test")}`)), ["instances/list-c", "instances/list-a"]);
    assert.deepEqual(names(await list(`filter=${listed}${encodeURIComponent(" AND environment=prod AND engine=POSTGRES")}`)), ["instances/list-b"]);
    assert.deepEqual(names(await list(`filter=${listed}${encodeURIComponent(" AND engine=MYSQL")}`)), []);
    assert.deepEqual(names(await list(`filter=${encodeURIComponent("state=DELETED")}`)), ["instances/pg-connect"]);

    const first = await list(`filter=${listed}&pageSize=2`);
    assert.deepEqual(names(first), ["instances/list-c", "instances/list-b"]);
    const second = await list(`filter=${listed}&pageSize=2&pageToken=${first.body.nextPageToken}`);
    assert.deepEqual([names(second), second.body.nextPageToken ?? ""], [["instances/list-a"], ""]);
    assert.deepEqual(refusal(await list(`pageSize=2&pageToken=${first.body.nextPageToken}`)), [400, "invalid_argument"]);
    const unknown = await list(`filter=${encodeURIComponent("owner=me")}`);
    assert.match(unknown.body.message, /unknown filter field "owner"; supported: engine, environment, state, title/);
    assert.match((await list(`filter=${encodeURIComponent("engine=ORACLE")}`)).body.message, /accepted: POSTGRES, MYSQL/);
  });

  it("refuses to remove an environment that an instance or a database still uses", async () => {
    assert.equal((await setEnvironments(["test", "staging", "prod"])).status, 200);
    await createInstanceOk(rest, token, "pg-staging", pgInstance({ environment: "environments/staging" }));
    const refused = await setEnvironments(["test", "prod"]);
    assert.deepEqual(refusal(refused), [400, "failed_precondition"]);
    assert.equal(refused.body.message, "environments/staging cannot be removed: still used by instances/pg-staging; move them to another environment first");

    assert.equal((await patch("pg-staging", { environment: "environments/test" }, "environment")).status, 200);
    await sql(`insert into instance_database (instance_id, name, environment) values ('pg-staging', 'appdb', 'staging')`);
    assert.match((await setEnvironments(["test", "prod"])).body.message, /still used by instances\/pg-staging\/databases\/appdb;/);
    await sql(`update instance_database set state = 'DELETED' where instance_id = 'pg-staging'`);
    assert.equal((await setEnvironments(["test", "prod"])).status, 200);

    // A deleted instance whose environment went away comes back only with its environment.
    assert.equal((await setEnvironments(["test", "staging", "prod"])).status, 200);
    await patch("pg-staging", { environment: "environments/staging" }, "environment");
    await call("DELETE", "/v1/instances/pg-staging");
    assert.equal((await setEnvironments(["test", "prod"])).status, 200);
    const undelete = await call("POST", "/v1/instances/pg-staging:undelete", {});
    assert.deepEqual(refusal(undelete), [400, "failed_precondition"]);
    assert.match(undelete.body.message, /environment "environments\/staging", which no longer exists/);
  });
});
