// The delivery log's retention (contract §16.1): the leader's hourly
// clean-up deletes the SENT and FAILED deliveries older than
// WORKSPACE_PROFILE.notification_delivery_retention (30 days by default),
// never a PENDING one, and nothing when the retention is 0s.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { deleteExpiredDeliveries } from "../shared/notify/index.ts";
import { adminQuery } from "./helpers/db.ts";
import { eventually } from "./helpers/instances.ts";
import { type CleanupWorld, startCleanupWorld } from "./helpers/retention-cleanup.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";

describe("notification delivery log retention", () => {
  let world: CleanupWorld;
  const left = async () => (await adminQuery("select target from notification_delivery order by id", world.app.database.url)).rows.map((r) => r.target);

  before(async () => {
    world = await startCleanupWorld("maintenance.cleanupNotificationDeliveries", async (app) => {
      // A delivery's target names its status and age in days.
      for (const [status, days] of [["SENT", 40], ["FAILED", 35], ["PENDING", 40], ["SENT", 20], ["FAILED", 0]] as const) {
        await adminQuery(
          `insert into notification_delivery (channel, event, target, address, payload, event_time, status, create_time)
           values ('MONITORING', 'issue.created', '${status}-${days}', 'https://example.com/', '{}', now(), '${status}', now() - make_interval(days => ${days}))`,
          app.database.url,
        );
      }
    });
  });
  after(() => world.close());

  it("is scheduled by the leader and keeps finished deliveries 30 days by default, pending ones whatever their age", async () => {
    await eventually(async () => (await left()).length === 3);
    assert.deepEqual(await left(), ["PENDING-40", "SENT-20", "FAILED-0"]);
  });

  it("deletes what is older than notification_delivery_retention", async () => {
    await mergeWorkspaceProfile(world.app, { notificationDeliveryRetention: "864000s" });
    await world.cleanUpUntil(async () => (await left()).length === 2);
    assert.deepEqual(await left(), ["PENDING-40", "FAILED-0"]);
  });

  it("keeps everything when the retention is 0s", async () => {
    await mergeWorkspaceProfile(world.app, { notificationDeliveryRetention: "0s" });
    assert.equal(await deleteExpiredDeliveries(world.app.db, world.app.settings, new Date(Date.now() + 3650 * 86_400_000)), 0);
    assert.deepEqual(await left(), ["PENDING-40", "FAILED-0"]);
  });
});
