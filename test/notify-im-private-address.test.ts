// An APP_IM entry's apiBaseUrl may not reach inside (contract §19.6) unless
// the server runs with --webhook-allow-private: it is refused at save, and a
// worker without the flag refuses to connect to one saved while the flag was
// on — the delivery fails at once and the vendor's peer hears nothing.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createDb, type Db } from "../shared/platform/db.ts";
import { createMetrics } from "../shared/platform/metrics.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { SLACK_TOKEN, startSlackPeer, type VendorPeer } from "./helpers/im-vendor-peers.ts";
import { eventually, testSecrets } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;

describe("IM API roots and private addresses", () => {
  let strict: TestApp;
  let lenient: TestApp;
  let worker: Worker;
  let workerDb: Db;
  let slack: VendorPeer;
  let token = "";

  const saveSlack = (app: TestApp, apiBaseUrl: string) =>
    restClient(app.baseUrl)<Json>("PATCH", "/v1/settings/APP_IM?updateMask=*", {
      token,
      body: { value: { appIm: { settings: [{ type: "SLACK", enabled: true, apiBaseUrl, slack: { token: SLACK_TOKEN, channel: "#ops" } }] } } },
    });

  before(async () => {
    strict = await startTestApp({ bootstrap: ADMIN });
    token = await signInFirstAdmin(restClient(strict.baseUrl));
    lenient = await startTestApp({ database: strict.database, flags: ["--webhook-allow-private"] });
    workerDb = await createDb(strict.database.url, quietLogger(), { maxPoolSize: 4 });
    worker = await startWorker({ url: strict.database.url, db: workerDb, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: false, externalUrl: undefined });
    slack = await startSlackPeer();
  });
  after(async () => {
    await worker?.stop();
    await workerDb?.end();
    await slack?.close();
    await lenient?.close();
    await strict?.close();
  });

  it("refuses an internal or non-http apiBaseUrl at save, naming the field", async () => {
    for (const url of [`${slack.origin}/api`, `http://localhost:${new URL(slack.origin).port}/api`, "http://10.0.0.8/api", "ftp://example.com/api"]) {
      const reply = await saveSlack(strict, url);
      assert.equal(reply.status, 400, `${url}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.code, "invalid_argument");
      assert.match(reply.body.message, /appIm\.settings\[0\]\.apiBaseUrl/);
    }
    assert.equal((await saveSlack(strict, "https://93.184.216.34/api")).status, 200);
  });

  it("refuses it again when sending: the delivery fails at once and nothing reaches the peer", async () => {
    assert.equal((await saveSlack(lenient, `${slack.origin}/api`)).status, 200);
    const pause = await restClient(strict.baseUrl)<Json>("PATCH", "/v1/settings/EMERGENCY_PAUSE?updateMask=*", { token, body: { value: { emergencyPause: { enabled: true, reason: "drill" } } } });
    assert.equal(pause.status, 200);
    let delivery: Json | undefined;
    await eventually(async () => {
      const list = await restClient(strict.baseUrl)<Json>("GET", "/v1/notificationDeliveries?filter=channel%3DSLACK", { token });
      delivery = list.body.notificationDeliveries?.[0];
      return delivery?.status === "FAILED";
    });
    assert.equal(delivery!.attempts, 1);
    assert.match(delivery!.lastError, /^chat\.postMessage: 127\.0\.0\.1 resolves to the internal address 127\.0\.0\.1/);
    assert.equal(slack.received.length, 0);
  });
});
