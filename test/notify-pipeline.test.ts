// Notifications of a change end to end (contract §16.1, §16.2): plan → issue
// → approval request → approve → rollout → task failure produce exactly the
// expected MONITORING deliveries (all events to one webhook, only
// taskRun.failed to another, by its event list), each with its deep link; a
// webhook that never answers does not slow the approval down; a locked user
// is an event too.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createMetrics } from "../shared/platform/metrics.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { createInstanceOk, createPgTarget, eventually, pgAdminSource, testSecrets } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restAs, restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

type Json = Record<string, any>;
type User = "admin" | "owner";
const EXTERNAL_URL = "https://svc.example.com";

describe("notifications of a change", () => {
  let app: TestApp;
  let worker: Worker;
  let rest: ReturnType<typeof restClient>;
  const token: Partial<Record<User, string>> = {};
  let target = "";
  let drop = async () => {};
  let everything: WebhookReceiver;
  let failures: WebhookReceiver;
  let silent: WebhookReceiver;

  const { call, ok } = restAs<User>(() => rest, token, "admin");
  const sentTo = async (receiver: WebhookReceiver) =>
    ((await ok("GET", "/v1/notificationDeliveries?pageSize=1000")).notificationDeliveries as Json[]).filter((d) => d.target.startsWith(receiver.origin)).reverse();

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN, flags: ["--webhook-allow-private", "--external-url", EXTERNAL_URL] });
    rest = restClient(app.baseUrl);
    worker = await startWorker({
      url: app.database.url,
      db: app.db,
      logger: quietLogger(),
      secrets: testSecrets(),
      metrics: createMetrics({ threadPoolSize: 4 }),
      webhookAllowPrivate: true,
      externalUrl: EXTERNAL_URL,
    });
    await makeUser(app.db, "owner");
    token.admin = await signInFirstAdmin(rest);
    token.owner = await signIn(rest, "owner");
    await ok("POST", "/v1/projects?projectId=notified", { requirePlanCheckSuccess: false });
    const policy = await ok("GET", "/v1/projects/notified:getIamPolicy");
    await ok("POST", "/v1/projects/notified:setIamPolicy", { policy: { etag: policy.etag, bindings: [...policy.bindings, { role: "roles/projectOwner", members: ["user:login_id=owner"] }] } });
    const pg = await createPgTarget();
    drop = pg.drop;
    await createInstanceOk(rest, token.admin, "notified-prod", { engine: "POSTGRES", environment: "environments/prod", dataSources: [pgAdminSource()] });
    target = `instances/notified-prod/databases/${pg.name}`;
    await eventually(async () => (await call("GET", `/v1/${target}`)).syncState === "OK");
    await ok("POST", "/v1/databases:transfer", { databases: [target], targetProject: "projects/notified" });
    [everything, failures, silent] = [await startWebhookReceiver(), await startWebhookReceiver(), await startWebhookReceiver()];
    silent.plan(...Array.from({ length: 20 }, () => "hang" as const));
    await ok("PATCH", "/v1/settings/MONITORING?updateMask=*", {
      value: {
        monitoring: {
          webhooks: [{ url: `${everything.origin}/all` }, { url: `${failures.origin}/failures`, events: ["taskRun.failed"] }, { url: `${silent.origin}/never`, events: ["issue.created", "issue.approved"] }],
        },
      },
    });
  });
  after(async () => {
    await worker?.stop();
    for (const receiver of [everything, failures, silent]) await receiver?.close();
    await app?.close();
    await drop();
  });

  it("delivers plan → issue → approval request → approve → rollout → task failure, exactly, and approves as fast with a silent webhook", async () => {
    const plan = await ok("POST", "/v1/projects/notified/plans", { title: "divide", specs: [{ changeDatabaseConfig: { targets: [target], statement: "select 1 / 0;" } }] }, "owner");
    await eventually(async () => (await ok("GET", `/v1/${plan.name}/planCheckRuns`)).planCheckRuns?.[0]?.status === "DONE", 60_000);
    const issue = await ok("POST", "/v1/projects/notified/issues", { plan: plan.name }, "owner");
    assert.equal(issue.approvalStatus, "PENDING");
    // The silent webhook holds the worker's request for issue.created while the approval is made.
    await eventually(async () => silent.received.length === 1);
    const started = performance.now();
    const approved = await ok("POST", `/v1/${issue.name}:approve`, { comment: "go" });
    const approveMs = performance.now() - started;
    assert.ok(approveMs < 1_000, `approve took ${approveMs} ms`);
    const stage = (await ok("GET", `/v1/${approved.rollout}`)).stages[0].name;
    await ok("POST", `/v1/${approved.rollout}:advance`, { stage }, "owner");
    await eventually(async () => (await call("GET", `/v1/${approved.rollout}`)).state === "FAILED", 60_000);
    await eventually(async () => (await sentTo(everything)).length === 6 && (await sentTo(everything)).every((d) => d.status === "SENT"), 30_000);

    const expected = ["issue.created", "issue.approvalRequested", "issue.approved", "rollout.stageStarted", "taskRun.failed", "rollout.failed"];
    assert.deepEqual((await sentTo(everything)).map((d) => d.event), expected);
    const bodies = everything.received.map((r) => JSON.parse(r.body));
    assert.deepEqual(bodies.map((b) => b.event).sort(), [...expected].sort());
    assert.deepEqual(everything.received.map((r) => r.headers["x-svc-event"]).sort(), [...expected].sort());
    for (const body of bodies) {
      assert.equal(body.link, `${EXTERNAL_URL}/${issue.name}`);
      assert.equal(body.title, issue.title);
    }
    const byEvent = Object.fromEntries(bodies.map((b) => [b.event, b]));
    assert.equal(byEvent["issue.approved"].actor, "users/admin");
    assert.deepEqual(byEvent["issue.approvalRequested"].detail, { step: 0, roles: ["roles/projectOwner"] });
    assert.match(byEvent["taskRun.failed"].detail.error, /division by zero/);
    assert.equal(byEvent["rollout.failed"].resource, approved.rollout);

    await eventually(async () => (await sentTo(failures)).some((d) => d.status === "SENT"));
    assert.deepEqual((await sentTo(failures)).map((d) => d.event), ["taskRun.failed"]);
    assert.equal(failures.received.length, 1);
    const silentOnes = await sentTo(silent);
    assert.deepEqual(silentOnes.map((d) => d.event), ["issue.created", "issue.approved"]);
  });

  it("tells that a user was locked after repeated failed sign-ins", async () => {
    await makeUser(app.db, "forgetful");
    for (let i = 0; i < 11; i++) await rest("POST", "/v1/auth/login", { body: { loginId: "forgetful", password: `wrong-${i}` } });
    await eventually(async () => (await sentTo(everything)).some((d) => d.event === "user.locked" && d.status === "SENT"));
    const body = JSON.parse(everything.received.find((r) => r.headers["x-svc-event"] === "user.locked")!.body);
    assert.equal(body.resource, "users/forgetful");
    assert.equal(body.actor, "system");
    assert.equal(body.link, `${EXTERNAL_URL}/users/forgetful`);
    assert.ok(Date.parse(body.detail.lockedUntil) > Date.now());
  });
});
