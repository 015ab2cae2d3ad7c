// The delivery log's retention (contract §16.1): the leader's hourly
// clean-up deletes the SENT and FAILED deliveries older than
// WORKSPACE_PROFILE.notification_delivery_retention (30 days by default),
// never a PENDING one, and nothing when the retention is 0s.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { deleteExpiredDeliveries } from "../shared/notify/index.ts";
import { createDb, type Db } from "../shared/platform/db.ts";
import { createMetrics } from "../shared/platform/metrics.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { eventually, testSecrets } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";

describe("notification delivery log retention", () => {
  let app: TestApp;
  let workerDb: Db;
  let worker: Worker;
  const sql = (text: string) => adminQuery(text, app.database.url);
  const left = async () => (await sql("select target from notification_delivery order by id")).rows.map((r) => r.target);
  const cleanUp = async () => {
    await sql("select graphile_worker.add_job('maintenance.cleanupNotificationDeliveries', '{}'::json)");
    await eventually(async () => (await sql("select count(*)::int as n from graphile_worker.jobs")).rows[0].n === 0);
  };

  before(async () => {
    app = await startTestApp();
    // A delivery's target names its status and age in days.
    for (const [status, days] of [["SENT", 40], ["FAILED", 35], ["PENDING", 40], ["SENT", 20], ["FAILED", 0]] as const) {
      await sql(`insert into notification_delivery (channel, event, target, address, payload, event_time, status, create_time)
                 values ('MONITORING', 'issue.created', '${status}-${days}', 'https://example.com/', '{}', now(), '${status}', now() - make_interval(days => ${days}))`);
    }
    workerDb = await createDb(app.database.url, quietLogger(), { maxPoolSize: 4 });
    worker = await startWorker({ url: app.database.url, db: workerDb, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: false, externalUrl: undefined });
  });
  after(async () => {
    await worker.stop();
    await workerDb.end();
    await app.close();
  });

  it("is scheduled by the leader and keeps finished deliveries 30 days by default, pending ones whatever their age", async () => {
    await eventually(async () => (await left()).length === 3);
    assert.deepEqual(await left(), ["PENDING-40", "SENT-20", "FAILED-0"]);
  });

  it("deletes what is older than notification_delivery_retention", async () => {
    await mergeWorkspaceProfile(app, { notificationDeliveryRetention: "864000s" });
    await eventually(async () => {
      await cleanUp(); // until the worker's own settings cache has the change
      return (await left()).length === 2;
    });
    assert.deepEqual(await left(), ["PENDING-40", "FAILED-0"]);
  });

  it("keeps everything when the retention is 0s", async () => {
    await mergeWorkspaceProfile(app, { notificationDeliveryRetention: "0s" });
    assert.equal(await deleteExpiredDeliveries(app.db, app.settings, new Date(Date.now() + 3650 * 86_400_000)), 0);
    assert.deepEqual(await left(), ["PENDING-40", "FAILED-0"]);
  });
});
