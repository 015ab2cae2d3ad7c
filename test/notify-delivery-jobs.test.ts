// The notify.deliver jobs (decision 0141): a transaction's deliveries go out
// in jobs of their first attempts, up to ten deliveries each; such a job
// attempts only the deliveries never attempted and leaves a delivery under a
// lease (another attempt holds it, or a dead worker's attempt left it) to a
// job of its own for when the lease ends; a later
// attempt's job (one delivery, keyed notify:<id>) attempts it whatever its
// count. The store and the attempts are driven directly, no worker running,
// against a MONITORING receiver on loopback.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { deliverNotifications } from "../shared/notify/deliver.ts";
import { insertDeliveries, type NewDelivery } from "../shared/notify/delivery.store.ts";
import { createMetrics } from "../shared/platform/metrics.ts";
import { withTransaction } from "../shared/platform/transaction.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { testSecrets } from "./helpers/instances.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

describe("notify.deliver jobs", () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  const sql = async (text: string) => (await adminQuery(text, app.database.url)).rows;
  const deps = () => ({ db: app.db, secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), allowPrivate: true });
  const delivery = (event: string): NewDelivery => ({
    channel: "MONITORING",
    event,
    target: receiver.origin,
    address: `${receiver.origin}/hook`,
    payload: { event, time: new Date().toISOString() },
    eventTime: new Date(),
  });
  /** Writes the deliveries in one transaction; answers their ids in order and the jobs that transaction added. */
  const written = async (events: readonly string[]) => {
    const [{ before }] = await sql(`select coalesce(max(id), 0)::int as before from graphile_worker._private_jobs`);
    await withTransaction(app.db, (tx) => insertDeliveries(tx, events.map(delivery)));
    const ids = (await sql(`select id::int from notification_delivery where event = any('{${events.join(",")}}') order by id`)).map((r) => r.id as number);
    const jobs = await sql(`select j.key, j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
                            where t.identifier = 'notify.deliver' and j.id > ${before} order by j.id`);
    return { ids, jobs };
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN, flags: ["--webhook-allow-private"] });
    receiver = await startWebhookReceiver();
    const rest = restClient(app.baseUrl);
    const token = await signInFirstAdmin(rest);
    const reply = await rest("PATCH", "/v1/settings/MONITORING?updateMask=*", { token, body: { value: { monitoring: { webhooks: [{ url: `${receiver.origin}/hook` }] } } } });
    assert.equal(reply.status, 200);
  });
  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  it("writes a transaction's deliveries with one job of first attempts per ten, in order and without a key", async () => {
    const events = Array.from({ length: 12 }, (_, i) => `test.batch${i}`);
    const { ids, jobs } = await written(events);
    assert.equal(ids.length, 12);
    assert.deepEqual(
      jobs.map((j) => [j.key, j.payload.deliveryIds]),
      [
        [null, ids.slice(0, 10)],
        [null, ids.slice(10)],
      ],
    );
  });

  it("attempts only the deliveries never attempted, and gives one under a lease a job for when the lease ends", async () => {
    const { ids } = await written(["test.fresh", "test.waiting", "test.held", "test.orphaned"]);
    const [fresh, waiting, held, orphaned] = ids as [number, number, number, number];
    // One failed once and waits for its next attempt's job; another is being
    // sent by someone else; the attempt at the last ended with its worker, its lease run out.
    await sql(`update notification_delivery set attempts = 1, last_error = 'HTTP 503' where id = ${waiting}`);
    await sql(`update notification_delivery set attempts = 1, lease_until = now() + interval '1 minute' where id = ${held}`);
    await sql(`update notification_delivery set attempts = 1, lease_until = now() - interval '1 minute' where id = ${orphaned}`);
    const sent = receiver.received.length;

    await deliverNotifications(deps(), { deliveryIds: ids });

    assert.deepEqual(
      receiver.received.slice(sent).map((r) => JSON.parse(r.body).event),
      ["test.fresh"],
    );
    const rows = await sql(`select id::int, status, attempts from notification_delivery where id = any('{${ids.join(",")}}') order by id`);
    assert.deepEqual(
      rows.map((r) => [r.id, r.status, r.attempts]),
      [
        [fresh, "SENT", 1],
        [waiting, "PENDING", 1],
        [held, "PENDING", 1],
        [orphaned, "PENDING", 1],
      ],
    );
    const jobs = await sql(`select j.key, j.payload, extract(epoch from j.run_at - greatest(d.lease_until, now()))::float as lag_s
                            from graphile_worker._private_jobs j join notification_delivery d on j.key = 'notify:' || d.id
                            where d.id = any('{${ids.join(",")}}') order by d.id`);
    assert.deepEqual(
      jobs.map((j) => [j.key, j.payload]),
      [
        [`notify:${held}`, { deliveryId: held }],
        [`notify:${orphaned}`, { deliveryId: orphaned }],
      ],
      "the waiting one keeps its own job (not written here), the others get one",
    );
    for (const job of jobs) assert.ok(Math.abs(job.lag_s) < 1, `${job.key} runs when its lease ends, or at once (${job.lag_s} s apart)`);
  });

  it("makes a delivery's next attempt from its own job, whatever its count of attempts", async () => {
    const { ids } = await written(["test.retried"]);
    const [id] = ids as [number];
    await sql(`update notification_delivery set attempts = 3, last_error = 'HTTP 503' where id = ${id}`);
    const sent = receiver.received.length;

    await deliverNotifications(deps(), { deliveryId: id });

    assert.deepEqual(
      receiver.received.slice(sent).map((r) => JSON.parse(r.body).event),
      ["test.retried"],
    );
    const [row] = await sql(`select status, attempts, last_error from notification_delivery where id = ${id}`);
    assert.deepEqual({ ...row }, { status: "SENT", attempts: 4, last_error: "" });
  });
});
