// Webhooks may not reach inside (contract §19.6) unless the server runs with
// --webhook-allow-private: loopback, link-local and private addresses, as IP
// literals or names resolving to them, are refused when MONITORING is saved
// and again when the worker connects (a URL saved while the flag was on, or
// a name that resolves inside only later, is never sent to).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createDb, type Db } from "../shared/platform/db.ts";
import { createMetrics } from "../shared/platform/metrics.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { eventually, testSecrets } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

type Json = Record<string, any>;

describe("webhooks and private addresses", () => {
  let strict: TestApp;
  let lenient: TestApp;
  let worker: Worker;
  let workerDb: Db;
  let hook: WebhookReceiver;
  const token = { strict: "", lenient: "" };

  const monitor = (app: "strict" | "lenient", urls: string[]) =>
    restClient(app === "strict" ? strict.baseUrl : lenient.baseUrl)<Json>("PATCH", "/v1/settings/MONITORING?updateMask=*", {
      token: token[app],
      body: { value: { monitoring: { webhooks: urls.map((url) => ({ url })) } } },
    });

  before(async () => {
    strict = await startTestApp({ bootstrap: ADMIN });
    token.strict = await signInFirstAdmin(restClient(strict.baseUrl));
    // The same store served with the flag: it saves what the strict worker must then refuse.
    lenient = await startTestApp({ database: strict.database, flags: ["--webhook-allow-private"] });
    token.lenient = token.strict; // sessions live in the store both serve
    workerDb = await createDb(strict.database.url, quietLogger(), { maxPoolSize: 4 });
    worker = await startWorker({ url: strict.database.url, db: workerDb, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: false, externalUrl: undefined });
    hook = await startWebhookReceiver();
  });
  after(async () => {
    await worker?.stop();
    await workerDb?.end();
    await hook?.close();
    await lenient?.close();
    await strict?.close();
  });

  it("refuses internal addresses and other schemes at save, naming the field", async () => {
    for (const url of [
      `${hook.origin}/x`,
      `http://localhost:${hook.port}/x`,
      "http://[::1]/x",
      "http://169.254.169.254/latest/meta-data",
      "https://10.1.2.3/x",
      "http://192.168.0.10/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://[::127.0.0.1]/x",
      "http://[64:ff9b::7f00:1]/x",
      "ftp://example.com/x",
    ]) {
      const reply = await monitor("strict", ["https://93.184.216.34/ok", url]);
      assert.equal(reply.status, 400, `${url}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.code, "invalid_argument");
      assert.match(reply.body.message, /monitoring\.webhooks\[1\]\.url/);
    }
    assert.equal((await monitor("strict", ["https://93.184.216.34/ok"])).status, 200);
  });

  it("refuses them again when sending, names resolving inside included, and sends nothing", async () => {
    assert.equal((await monitor("lenient", [`${hook.origin}/literal`, `http://localhost:${hook.port}/named`])).status, 200);
    const pause = await restClient(strict.baseUrl)<Json>("PATCH", "/v1/settings/EMERGENCY_PAUSE?updateMask=*", {
      token: token.strict,
      body: { value: { emergencyPause: { enabled: true, reason: "drill" } } },
    });
    assert.equal(pause.status, 200);
    const list = async () =>
      ((await restClient(strict.baseUrl)<Json>("GET", "/v1/notificationDeliveries?filter=status%3DFAILED", { token: token.strict })).body.notificationDeliveries ?? []) as Json[];
    await eventually(async () => (await list()).length === 2, 20_000);
    const failed = await list();
    for (const delivery of failed) {
      assert.equal(delivery.attempts, 1, "refused at once, not retried");
      assert.match(delivery.lastError, /internal address/);
    }
    assert.deepEqual(failed.map((d) => new URL(d.target).pathname).sort(), ["/literal", "/named"]);
    assert.equal(hook.received.length, 0);
  });
  it("refuses a project webhook's internal URL at save, on create and on update, and at send", async () => {
    const strictRest = restClient(strict.baseUrl);
    const as = (app: "strict" | "lenient") => (method: string, path: string, body?: unknown) =>
      restClient(app === "strict" ? strict.baseUrl : lenient.baseUrl)<Json>(method, path, { token: token[app], body });
    assert.equal((await as("strict")("POST", "/v1/projects?projectId=private-hooks", {})).status, 200);
    const refused = await as("strict")("POST", "/v1/projects/private-hooks/webhooks", { title: "t", type: "SLACK", url: `http://localhost:${hook.port}/x` });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /webhook\.url .*internal address/);
    const saved = await as("lenient")("POST", "/v1/projects/private-hooks/webhooks", { title: "t", type: "GENERIC", url: `${hook.origin}/project` });
    assert.equal(saved.status, 200);
    const moved = await as("strict")("PATCH", `/v1/${saved.body.name}?updateMask=url`, { url: "http://[::1]/x" });
    assert.equal(moved.status, 400);
    assert.match(moved.body.message, /webhook\.url/);

    await adminQuery(`insert into instance (id, engine, environment) values ('private-pg', 'POSTGRES', 'prod');
                      insert into instance_database (instance_id, name, project_id) values ('private-pg', 'db', 'private-hooks')`, strict.database.url);
    const plan = await as("strict")("POST", "/v1/projects/private-hooks/plans", { title: "p", specs: [{ changeDatabaseConfig: { targets: ["instances/private-pg/databases/db"], statement: "select 1" } }] });
    assert.equal((await as("strict")("POST", "/v1/projects/private-hooks/issues", { plan: plan.body.name })).status, 200);
    const sent = async () =>
      ((await strictRest<Json>("GET", `/v1/notificationDeliveries?filter=${encodeURIComponent("channel=PROJECT_WEBHOOK")}`, { token: token.strict })).body.notificationDeliveries ?? []) as Json[];
    await eventually(async () => (await sent()).some((d) => d.status === "FAILED"), 20_000);
    const [failed] = (await sent()).filter((d) => d.status === "FAILED");
    assert.equal(failed!.target, saved.body.name);
    assert.equal(failed!.attempts, 1);
    assert.match(failed!.lastError, /internal address/);
    assert.equal(hook.received.length, 0);
  });
});
