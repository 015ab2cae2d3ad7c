// MONITORING webhooks end to end through REST and the real worker, against
// in-process receivers on loopback (--webhook-allow-private): the exact
// signed request, retries and their back-off, Retry-After, a refusal that is
// final, the 10 s attempt timeout, two workers sending each delivery once,
// the delivery log with its filters, paging and :retry, the test call, and
// the metrics. Events come from switching the emergency pause.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createDb, type Db } from "../shared/platform/db.ts";
import { createMetrics, type Metrics } from "../shared/platform/metrics.ts";
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
const SECRET = "s3cret-for-hmac";
const EXTERNAL_URL = "https://svc.example.com";

describe("MONITORING webhook deliveries", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let token = "";
  const workers: { worker: Worker; db: Db; metrics: Metrics }[] = [];
  const receivers: WebhookReceiver[] = [];
  let paused = false;

  const call = (method: string, path: string, body?: unknown) => rest<Json>(method, path, { token, body });
  const ok = async (method: string, path: string, body?: unknown) => {
    const reply = await call(method, path, body);
    assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const addWorker = async () => {
    const db = await createDb(app.database.url, quietLogger(), { maxPoolSize: 6 });
    const metrics = createMetrics({ threadPoolSize: 4 });
    const worker = await startWorker({ url: app.database.url, db, logger: quietLogger(), secrets: testSecrets(), metrics, webhookAllowPrivate: true, externalUrl: EXTERNAL_URL });
    workers.push({ worker, db, metrics });
  };
  const receiver = async () => {
    const started = await startWebhookReceiver();
    receivers.push(started);
    return started;
  };
  /** Points MONITORING at these URLs only. */
  const monitor = (...urls: string[]) => ok("PATCH", "/v1/settings/MONITORING?updateMask=*", { value: { monitoring: { webhooks: urls.map((url) => ({ url, secret: SECRET })) } } });
  /** Switches the emergency pause: one emergencyPause.changed event. */
  const flipPause = async () => {
    paused = !paused;
    await ok("PATCH", "/v1/settings/EMERGENCY_PAUSE?updateMask=*", { value: { emergencyPause: { enabled: paused, reason: paused ? "drill" : "" } } });
  };
  const deliveriesTo = async (target: string) => (await ok("GET", `/v1/notificationDeliveries?filter=${encodeURIComponent(`channel=MONITORING`)}&pageSize=1000`)).notificationDeliveries.filter((d: Json) => d.target === target) as Json[];
  const deliveryWhen = async (target: string, done: (d: Json) => boolean) => {
    let found: Json | undefined;
    await eventually(async () => !!(found = (await deliveriesTo(target)).find(done)), 30_000);
    return found!;
  };
  /** Runs the waiting retry of the delivery now, as if its back-off had passed; answers how long it was still to wait. */
  const fastForward = async (name: string) => {
    const id = name.split("/")[1];
    const { rows } = await adminQuery(`update graphile_worker._private_jobs j set run_at = now() from (select run_at from graphile_worker._private_jobs where key = 'notify:${id}') old where j.key = 'notify:${id}' returning extract(epoch from old.run_at - now()) * 1000 as wait_ms`, app.database.url);
    return Number(rows[0]?.wait_ms);
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN, flags: ["--webhook-allow-private", "--external-url", EXTERNAL_URL] });
    rest = restClient(app.baseUrl);
    token = await signInFirstAdmin(rest);
    await addWorker();
  });
  after(async () => {
    for (const { worker, db } of workers) {
      await worker.stop();
      await db.end();
    }
    for (const r of receivers) await r.close();
    await app?.close();
  });

  it("POSTs the payload with the event, a unique delivery id and the body's HMAC-SHA256, and logs it SENT", async () => {
    const hook = await receiver();
    await monitor(`${hook.origin}/hook?token=abc`);
    await flipPause();
    const sent = await deliveryWhen(`${hook.origin}/hook`, (d) => d.status === "SENT");
    assert.equal(hook.received.length, 1);
    const [request] = hook.received;
    assert.equal(request!.path, "/hook?token=abc");
    assert.equal(request!.headers["content-type"], "application/json");
    assert.equal(request!.headers["x-svc-event"], "emergencyPause.changed");
    assert.match(String(request!.headers["x-svc-delivery"]), /^[0-9a-f-]{36}$/);
    const expected = createHmac("sha256", SECRET).update(Buffer.from(request!.body, "utf8")).digest("hex");
    assert.equal(request!.headers["x-svc-signature"], `sha256=${expected}`);
    const body = JSON.parse(request!.body);
    assert.deepEqual(Object.keys(body).sort(), ["actor", "detail", "event", "link", "resource", "time", "title"]);
    assert.equal(body.event, "emergencyPause.changed");
    assert.equal(body.actor, "users/admin");
    assert.equal(body.resource, "settings/EMERGENCY_PAUSE");
    assert.equal(body.link, "https://svc.example.com/settings/EMERGENCY_PAUSE");
    assert.deepEqual(body.detail, { enabled: paused, reason: paused ? "drill" : "" });
    assert.ok(Date.parse(body.time) <= request!.time);
    assert.equal(sent.attempts, 1);
    assert.equal(sent.event, "emergencyPause.changed");
    assert.ok(sent.sentTime && sent.createTime && !sent.lastError);
    assert.match(sent.name, /^notificationDeliveries\/\d+$/);
    // Neither the log nor the setting shows the secret, nor the URL's query.
    const { rows } = await adminQuery(`select count(*)::int as n from audit_log where request::text like '%${SECRET}%' or response::text like '%${SECRET}%'`, app.database.url);
    assert.equal(rows[0].n, 0);
    assert.ok(!JSON.stringify(await ok("GET", "/v1/notificationDeliveries")).includes("abc"));
    assert.ok(!JSON.stringify(await ok("GET", "/v1/settings/MONITORING")).includes(SECRET));
  });

  it("retries a receiver that fails twice, waiting longer each time, and sends once it answers", async () => {
    const hook = await receiver();
    hook.plan({ status: 500, body: "down" }, { status: 503 });
    await monitor(`${hook.origin}/flaky`);
    await flipPause();
    const first = await deliveryWhen(`${hook.origin}/flaky`, (d) => d.attempts === 1 && d.status === "PENDING" && !!d.lastError);
    assert.match(first.lastError, /HTTP 500: down/);
    const firstWait = await fastForward(first.name);
    assert.ok(firstWait > 4_000 && firstWait <= 8_400, `first wait ${firstWait} ms`);
    await deliveryWhen(`${hook.origin}/flaky`, (d) => d.attempts === 2 && d.status === "PENDING" && /HTTP 503/.test(d.lastError));
    const secondWait = await fastForward(first.name);
    assert.ok(secondWait > 9_000 && secondWait <= 16_800, `second wait ${secondWait} ms`);
    const sent = await deliveryWhen(`${hook.origin}/flaky`, (d) => d.status === "SENT");
    assert.equal(sent.attempts, 3);
    assert.equal(hook.received.length, 3);
    assert.equal(new Set(hook.received.map((r) => r.headers["x-svc-delivery"])).size, 1, "every attempt carries the same delivery id");
  });

  it("honours a 429's Retry-After, and fails a 400 at once; :retry sends a FAILED one again", async () => {
    const limited = await receiver();
    limited.plan({ status: 429, headers: { "retry-after": "2" } });
    const refusing = await receiver();
    refusing.plan({ status: 400, body: "bad payload" });
    await monitor(`${limited.origin}/limited`, `${refusing.origin}/refusing`);
    await flipPause();
    const failed = await deliveryWhen(`${refusing.origin}/refusing`, (d) => d.status === "FAILED");
    assert.equal(failed.attempts, 1);
    assert.match(failed.lastError, /HTTP 400: bad payload/);
    const { rows } = await adminQuery(`select count(*)::int as n from graphile_worker._private_jobs where key = 'notify:${failed.name.split("/")[1]}'`, app.database.url);
    assert.equal(rows[0].n, 0, "no attempt follows a 400");
    const sent = await deliveryWhen(`${limited.origin}/limited`, (d) => d.status === "SENT");
    assert.equal(sent.attempts, 2);
    const gap = limited.received[1]!.time - limited.received[0]!.time;
    assert.ok(gap >= 1_900 && gap < 6_000, `retried after ${gap} ms`);

    const notFailed = await call("POST", `/v1/${sent.name}:retry`, {});
    assert.equal(notFailed.status, 400);
    assert.equal(notFailed.body.code, "failed_precondition");
    assert.equal((await call("POST", "/v1/notificationDeliveries/999999:retry", {})).status, 404);
    assert.equal((await call("POST", "/v1/notificationDeliveries/x:retry", {})).status, 400);
    const again = await ok("POST", `/v1/${failed.name}:retry`, {});
    assert.equal(again.status, "PENDING");
    const resent = await deliveryWhen(`${refusing.origin}/refusing`, (d) => d.status === "SENT");
    assert.equal(resent.attempts, 1);
    assert.equal(refusing.received.length, 2);
    const audit = await adminQuery(`select resource from audit_log where action = 'bb.settings.retryNotification' and status_code = 'ok'`, app.database.url);
    assert.deepEqual(audit.rows.map((r) => r.resource), [failed.name]);
  });

  it("gives up an attempt after 10 s without an answer and tries again", async () => {
    const hook = await receiver();
    hook.plan("hang");
    await monitor(`${hook.origin}/hanging`);
    await flipPause();
    const timedOut = await deliveryWhen(`${hook.origin}/hanging`, (d) => d.attempts === 1 && !!d.lastError);
    assert.match(timedOut.lastError, /no answer within 10s/);
    assert.equal(timedOut.status, "PENDING");
    await fastForward(timedOut.name);
    await deliveryWhen(`${hook.origin}/hanging`, (d) => d.status === "SENT");
  });

  /** The SENT deliveries each worker's metrics have counted so far. */
  const sentByEachWorker = () =>
    Promise.all(workers.map(async ({ metrics }) => (await metrics.notificationDeliveries.get()).values.find((v) => v.labels.status === "SENT")?.value ?? 0));

  it("sends each delivery once with two workers", async () => {
    await addWorker();
    const hook = await receiver();
    await monitor(`${hook.origin}/pair`);
    const sentBefore = await sentByEachWorker();
    for (let i = 0; i < 12; i++) await flipPause();
    await eventually(async () => (await deliveriesTo(`${hook.origin}/pair`)).filter((d) => d.status === "SENT").length === 12, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(hook.received.length, 12);
    assert.equal(new Set(hook.received.map((r) => r.headers["x-svc-delivery"])).size, 12);
    assert.ok((await deliveriesTo(`${hook.origin}/pair`)).every((d) => d.attempts === 1));
    // Which worker takes which job is the queue's choice (one can fetch all 12
    // at once): what must hold is that, counted over both, each was sent once.
    const sentBy = (await sentByEachWorker()).map((n, i) => n - sentBefore[i]!);
    assert.equal(sentBy.reduce((a, b) => a + b, 0), 12, `sent by each worker: ${sentBy}`);
    const text = await workers[0]!.metrics.registry.metrics();
    assert.match(text, /svc_notification_deliveries_total\{channel="MONITORING",status="SENT"\} \d+/);
    assert.match(text, /svc_notification_delivery_delay_seconds_count\{channel="MONITORING"\} \d+/);
  });

  it("lists the log newest first with filters and pages, and refuses what it does not know", async () => {
    const all = (await ok("GET", "/v1/notificationDeliveries?pageSize=1000")).notificationDeliveries as Json[];
    const times = all.map((d) => Date.parse(d.createTime));
    assert.deepEqual(times, [...times].sort((a, b) => b - a));
    const failedOnes = (await ok("GET", `/v1/notificationDeliveries?filter=${encodeURIComponent("status=FAILED")}`)).notificationDeliveries ?? [];
    assert.ok(failedOnes.every((d: Json) => d.status === "FAILED"));
    const byEvent = (await ok("GET", `/v1/notificationDeliveries?filter=${encodeURIComponent('event="emergencyPause.changed" AND status=SENT')}`)).notificationDeliveries as Json[];
    assert.equal(byEvent.length, all.filter((d) => d.status === "SENT").length);
    // Every delivery here is of emergencyPause.changed: another event's filter must find none.
    const otherEvent = (await ok("GET", `/v1/notificationDeliveries?filter=${encodeURIComponent('event="issue.created"')}`)).notificationDeliveries;
    assert.equal(otherEvent, undefined);
    const future = (await ok("GET", `/v1/notificationDeliveries?filter=${encodeURIComponent("create_time>2999-01-01T00:00:00Z")}`)).notificationDeliveries;
    assert.equal(future, undefined);
    const seen: string[] = [];
    let pageToken = "";
    do {
      const page = await ok("GET", `/v1/notificationDeliveries?pageSize=5${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ""}`);
      seen.push(...page.notificationDeliveries.map((d: Json) => d.name));
      pageToken = page.nextPageToken ?? "";
    } while (pageToken);
    assert.deepEqual(seen, all.map((d) => d.name));
    const unknown = await call("GET", `/v1/notificationDeliveries?filter=${encodeURIComponent("owner=me")}`);
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /channel/);
    const badStatus = await call("GET", `/v1/notificationDeliveries?filter=${encodeURIComponent("status=LOST")}`);
    assert.equal(badStatus.status, 400);
  });

  it("sends a signed test message to each webhook and answers what each receiver said", async () => {
    const good = await receiver();
    good.plan({ status: 200, body: "received" });
    const bad = await receiver();
    bad.plan({ status: 404, body: "no such hook" });
    await monitor(`${good.origin}/t`, `${bad.origin}/t`);
    const reply = await ok("POST", "/v1/settings/MONITORING:test", {});
    assert.deepEqual(reply.results, [
      { url: `${good.origin}/t`, status: 200, body: "received" },
      { url: `${bad.origin}/t`, status: 404, body: "no such hook", error: "HTTP 404" },
    ]);
    const request = good.received[0]!;
    assert.equal(request.headers["x-svc-event"], "test");
    assert.equal(request.headers["x-svc-signature"], `sha256=${createHmac("sha256", SECRET).update(request.body).digest("hex")}`);
  });
});
