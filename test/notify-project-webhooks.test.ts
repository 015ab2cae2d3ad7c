// Project webhooks (contract §19.3) through REST and the real worker, against
// in-process receivers on loopback (--webhook-allow-private): the standard
// methods with their checks, the URL and secret never shown nor audited;
// GENERIC's signed payload and each vendor's incoming-webhook format with
// its escaping and signatures, checked by an independent implementation;
// event filters and other projects; vendor error codes in a 200; a webhook
// deleted before its retry; the ten attempts exhausted; the :test call.
// Events come from issues and their comments.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createMetrics } from "../shared/platform/metrics.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { eventually, testSecrets } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restAs, restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

type Json = Record<string, any>;
const EXTERNAL_URL = "https://svc.example.com";
const SECRET = "robot-signing-secret";
const MARKUP_TITLE = "Fix <b>*bold*</b> & @everyone";

describe("project webhooks", () => {
  let app: TestApp;
  let worker: Worker;
  let rest: ReturnType<typeof restClient>;
  const token: Partial<Record<"admin", string>> = {};
  const receivers: WebhookReceiver[] = [];
  const { call, ok } = restAs(() => rest, token, "admin");
  const sql = (text: string) => adminQuery(text, app.database.url);

  const receiver = async () => {
    const started = await startWebhookReceiver();
    receivers.push(started);
    return started;
  };
  const hook = (project: string, webhook: Json) => ok("POST", `/v1/projects/${project}/webhooks`, webhook);
  let issues = 0;
  /** A new issue in the project (issue.created), titled `title`. */
  const newIssue = async (project: string, title = `change ${++issues}`) => {
    const plan = await ok("POST", `/v1/projects/${project}/plans`, { title, specs: [{ changeDatabaseConfig: { targets: [`instances/hooks-pg/databases/${project}`], statement: "select 1" } }] });
    return (await ok("POST", `/v1/projects/${project}/issues`, { plan: plan.name, title })).name as string;
  };
  const comment = (issue: string) => ok("POST", `/v1/${issue}/comments`, { comment: "see above" });
  const deliveriesTo = async (webhook: string) =>
    ((await ok("GET", `/v1/notificationDeliveries?pageSize=1000&filter=${encodeURIComponent("channel=PROJECT_WEBHOOK")}`)).notificationDeliveries as Json[]).filter((d) => d.target === webhook);
  const deliveryWhen = async (webhook: string, done: (d: Json) => boolean) => {
    let found: Json | undefined;
    await eventually(async () => !!(found = (await deliveriesTo(webhook)).find(done)), 30_000);
    return found!;
  };
  /** Runs the waiting retry of the delivery now, as if its back-off had passed. */
  const fastForward = (delivery: string) => sql(`update graphile_worker._private_jobs set run_at = now() where key = 'notify:${delivery.split("/")[1]}'`);

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN, flags: ["--webhook-allow-private", "--external-url", EXTERNAL_URL] });
    rest = restClient(app.baseUrl);
    worker = await startWorker({ url: app.database.url, db: app.db, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: true, externalUrl: EXTERNAL_URL });
    token.admin = await signInFirstAdmin(rest);
    for (const project of ["hooks", "elsewhere"]) await ok("POST", `/v1/projects?projectId=${project}`, {});
    await sql(`insert into instance (id, engine, environment) values ('hooks-pg', 'POSTGRES', 'prod');
               insert into instance_database (instance_id, name, project_id) values ('hooks-pg', 'hooks', 'hooks'), ('hooks-pg', 'elsewhere', 'elsewhere')`);
  });
  after(async () => {
    await worker?.stop();
    for (const r of receivers) await r.close();
    await app?.close();
  });

  it("creates, lists, reads, updates by mask and deletes, never showing nor auditing the URL or the secret", async () => {
    const slack = await hook("hooks", { title: "Team channel", type: "SLACK", url: "https://hooks.slack.com/services/T0/B0/url-token", events: ["issue.created"] });
    assert.match(slack.name, /^projects\/hooks\/webhooks\/[1-9]\d*$/);
    assert.equal(slack.urlShown, "https://hooks.slack.com/***");
    assert.equal(slack.url, undefined);
    assert.equal(slack.secretSet, undefined, "false, which JSON leaves out");
    assert.deepEqual(slack.events, ["issue.created"]);
    assert.equal(slack.creator, "users/admin");
    const generic = await hook("hooks", { title: "CI", type: "GENERIC", url: "https://user:pw@ci.example.com/hook/in?token=q", secret: SECRET });
    assert.equal(generic.urlShown, "https://ci.example.com/hook/in");
    assert.equal(generic.secretSet, true);
    assert.deepEqual((await ok("GET", "/v1/projects/hooks/webhooks")).webhooks.map((w: Json) => w.name), [slack.name, generic.name]);
    assert.equal((await ok("GET", `/v1/${generic.name}`)).title, "CI");

    const renamed = await ok("PATCH", `/v1/${slack.name}?updateMask=title,events`, { title: "Renamed", events: [], etag: slack.etag });
    assert.equal(renamed.title, "Renamed");
    assert.equal(renamed.events, undefined, "no events (all of them), which JSON leaves out");
    assert.equal(renamed.urlShown, slack.urlShown, "the URL stays when the mask leaves it out");
    const stale = await call("PATCH", `/v1/${slack.name}?updateMask=title`, { title: "again", etag: slack.etag });
    assert.equal(stale.httpStatus, 409);
    const cleared = await ok("PATCH", `/v1/${generic.name}?updateMask=secret`, { secret: "" });
    assert.equal(cleared.secretSet, undefined);

    await ok("DELETE", `/v1/${slack.name}`);
    assert.equal((await call("GET", `/v1/${slack.name}`)).httpStatus, 404);
    assert.equal((await call("DELETE", `/v1/${slack.name}`)).httpStatus, 404);
    await ok("DELETE", `/v1/${generic.name}`);

    const { rows } = await sql(`select action, request, response from audit_log where method like '%Webhook' order by id`);
    assert.deepEqual(rows.map((r) => r.action), ["bb.projects.update", "bb.projects.update", "bb.projects.update", "bb.projects.update", "bb.projects.update", "bb.projects.update", "bb.projects.update", "bb.projects.update"]);
    const recorded = JSON.stringify(rows);
    for (const secret of ["url-token", SECRET, "token=q", ":pw@"]) assert.ok(!recorded.includes(secret), `the audit log holds ${secret}`);
    const stored = await sql(`select url, secret from project_webhook`);
    assert.equal(stored.rowCount, 0);
  });

  it("refuses what a webhook cannot hold, each with a clear error", async () => {
    const refusals: [Json, RegExp][] = [
      [{ title: "t", type: "SLACK", url: "ftp://x.example.com/" }, /scheme "ftp:" is not http or https/],
      [{ title: "t", type: "SLACK", url: "" }, /webhook.url is required/],
      [{ title: "", type: "SLACK", url: "https://x.example.com/" }, /webhook.title is required/],
      [{ title: "t", url: "https://x.example.com/" }, /webhook.type: "" is not one of SLACK/],
      [{ title: "t", type: "SLACK", url: "https://x.example.com/", secret: "s" }, /a SLACK webhook signs nothing/],
      [{ title: "t", type: "TELEGRAM", url: "https://api.telegram.org/bot1:x/sendMessage" }, /the chat_id is missing/],
      [{ title: "t", type: "GENERIC", url: "https://x.example.com/", events: ["user.locked"] }, /"user.locked" is not an event of a project/],
    ];
    for (const [webhook, message] of refusals) {
      const reply = await call("POST", "/v1/projects/hooks/webhooks", webhook);
      assert.equal(reply.httpStatus, 400, JSON.stringify(reply));
      assert.match(reply.message, message);
    }
    assert.equal((await call("POST", "/v1/projects/missing/webhooks", { title: "t", type: "SLACK", url: "https://x.example.com/" })).httpStatus, 404);
    assert.equal((await call("GET", "/v1/projects/hooks/webhooks/999")).httpStatus, 404);
    assert.equal((await call("GET", "/v1/projects/hooks/webhooks/abc")).httpStatus, 400);
  });

  it("sends GENERIC the signed payload of the project's events only, by its event list, logged under its name", async () => {
    const all = await receiver();
    const created = await receiver();
    const generic = await hook("hooks", { title: "all", type: "GENERIC", url: `${all.origin}/all?k=v`, secret: SECRET });
    const onlyCreated = await hook("hooks", { title: "created", type: "GENERIC", url: `${created.origin}/created`, events: ["issue.created"] });
    const issue = await newIssue("hooks");
    await newIssue("elsewhere");
    await comment(issue);
    const sent = await deliveryWhen(generic.name, (d) => d.event === "issue.commented" && d.status === "SENT");
    assert.equal(sent.channel, "PROJECT_WEBHOOK");
    assert.equal(sent.attempts, 1);
    await deliveryWhen(onlyCreated.name, (d) => d.event === "issue.created" && d.status === "SENT");

    const requests = all.received.filter((r) => JSON.parse(r.body).resource.startsWith(issue));
    const events = requests.map((r) => r.headers["x-svc-event"]);
    for (const event of ["issue.created", "issue.commented"]) assert.equal(events.filter((e) => e === event).length, 1, event);
    for (const request of requests) {
      assert.equal(request.path, "/all?k=v");
      assert.equal(request.headers["x-svc-signature"], `sha256=${createHmac("sha256", SECRET).update(Buffer.from(request.body, "utf8")).digest("hex")}`);
      assert.match(String(request.headers["x-svc-delivery"]), /^[0-9a-f-]{36}$/);
      const body = JSON.parse(request.body);
      assert.deepEqual(Object.keys(body).sort(), ["actor", "detail", "event", "link", "resource", "time", "title"]);
      assert.equal(body.link, `${EXTERNAL_URL}/${issue}`);
    }
    assert.ok(!all.received.some((r) => JSON.parse(r.body).resource.startsWith("projects/elsewhere/")), "another project's events stay away");
    assert.ok(created.received.every((r) => r.headers["x-svc-event"] === "issue.created" && !r.headers["x-svc-signature"]));
    assert.ok(!JSON.stringify(await ok("GET", "/v1/notificationDeliveries?pageSize=1000")).includes(all.origin), "the log names the webhook, not its URL");
    for (const w of [generic, onlyCreated]) await ok("DELETE", `/v1/${w.name}`);
  });

  it("speaks each vendor's incoming-webhook format, escaping the title for its markup and signing DingTalk's and Feishu's", async () => {
    const vendors = ["SLACK", "DISCORD", "TEAMS", "DINGTALK", "FEISHU", "LARK", "WECOM", "TELEGRAM"] as const;
    const got: Partial<Record<(typeof vendors)[number], WebhookReceiver>> = {};
    const names: string[] = [];
    for (const type of vendors) {
      const r = (got[type] = await receiver());
      const path = type === "TELEGRAM" ? "/bot123:abc/sendMessage?chat_id=-100200" : type === "DINGTALK" ? "/robot/send?access_token=tok" : `/${type.toLowerCase()}`;
      const secret = type === "DINGTALK" || type === "FEISHU" ? SECRET : undefined;
      names.push((await hook("hooks", { title: type, type, url: `${r.origin}${path}`, secret, events: ["issue.commented"] })).name);
    }
    const issue = await newIssue("hooks", MARKUP_TITLE);
    await comment(issue);
    for (const name of names) await deliveryWhen(name, (d) => d.status === "SENT");
    const link = `${EXTERNAL_URL}/${issue}`;
    const only = (type: (typeof vendors)[number]) => {
      assert.equal(got[type]!.received.length, 1, type);
      return got[type]!.received[0]!;
    };
    const body = (type: (typeof vendors)[number]) => JSON.parse(only(type).body);
    const line = `${issue} · by users/admin`;
    const plain = `New comment: ${MARKUP_TITLE}\n${line}\n${link}`;

    assert.deepEqual(body("SLACK"), { text: `*New comment: Fix &lt;b&gt;*bold*&lt;/b&gt; &amp; @everyone*\n${line}\n<${link}|Open>` });
    assert.deepEqual(body("DISCORD"), { content: `**New comment: Fix \\<b\\>\\*bold\\*\\</b\\> & @everyone**\n${line}\n<${link}>`, allowed_mentions: { parse: [] } });
    const card = body("TEAMS").attachments[0];
    assert.equal(card.contentType, "application/vnd.microsoft.card.adaptive");
    assert.deepEqual(card.content.body.map((b: Json) => b.text), ["New comment: Fix \\<b\\>\\*bold\\*\\</b\\> & @everyone", line]);
    assert.deepEqual(card.content.actions, [{ type: "Action.OpenUrl", title: "Open", url: link }]);
    assert.deepEqual(body("WECOM"), { msgtype: "text", text: { content: plain } });
    assert.deepEqual(body("TELEGRAM"), { chat_id: "-100200", text: plain, link_preview_options: { is_disabled: true } });

    const ding = only("DINGTALK");
    assert.deepEqual(JSON.parse(ding.body), { msgtype: "text", text: { content: plain } });
    const query = new URL(ding.path, "http://x").searchParams;
    assert.equal(query.get("access_token"), "tok");
    const timestamp = query.get("timestamp")!;
    assert.ok(Math.abs(Number(timestamp) - Date.now()) < 60_000);
    assert.equal(query.get("sign"), createHmac("sha256", SECRET).update(`${timestamp}\n${SECRET}`).digest("base64"));

    const feishu = body("FEISHU");
    assert.equal(feishu.sign, createHmac("sha256", `${feishu.timestamp}\n${SECRET}`).update("").digest("base64"));
    assert.deepEqual(feishu.content.post.en_us, {
      title: `New comment: ${MARKUP_TITLE}`,
      content: [[{ tag: "text", text: line }], [{ tag: "a", text: "Open", href: link }]],
    });
    assert.deepEqual(body("LARK"), { msg_type: "post", content: feishu.content }, "LARK unsigned: no timestamp nor sign");
    for (const name of names) await ok("DELETE", `/v1/${name}`);
  });

  it("fails a vendor's refusal in a 200 at once, retries its rate limit, and ends FAILED when the webhook is deleted before its retry", async () => {
    const ding = await receiver();
    ding.plan({ status: 200, body: JSON.stringify({ errcode: 310000, errmsg: "sign not match" }) });
    const wecom = await receiver();
    wecom.plan({ status: 200, body: JSON.stringify({ errcode: 45009, errmsg: "api freq out of limit" }) });
    const refused = await hook("hooks", { title: "ding", type: "DINGTALK", url: `${ding.origin}/robot/send?access_token=t`, events: ["issue.created"] });
    const limited = await hook("hooks", { title: "wecom", type: "WECOM", url: `${wecom.origin}/cgi-bin/webhook/send?key=k`, events: ["issue.created"] });
    await newIssue("hooks");
    const failed = await deliveryWhen(refused.name, (d) => d.status === "FAILED");
    assert.equal(failed.attempts, 1);
    assert.match(failed.lastError, /HTTP 200 with error code 310000: .*sign not match/);
    const waiting = await deliveryWhen(limited.name, (d) => d.status === "PENDING" && d.attempts === 1);
    assert.match(waiting.lastError, /error code 45009/);

    await ok("DELETE", `/v1/${limited.name}`);
    await fastForward(waiting.name);
    const ended = await deliveryWhen(limited.name, (d) => d.status === "FAILED");
    assert.equal(ended.attempts, 2);
    assert.equal(ended.lastError, `${limited.name} was deleted before this delivery was sent`);
    assert.equal(wecom.received.length, 1, "nothing is sent for a deleted webhook");
    await ok("DELETE", `/v1/${refused.name}`);
  });

  it("ends FAILED after the tenth failed attempt, with no attempt after it", async () => {
    const down = await receiver();
    down.plan(...Array.from({ length: 12 }, () => ({ status: 503, body: "maintenance" })));
    const webhook = await hook("hooks", { title: "down", type: "GENERIC", url: `${down.origin}/down`, events: ["issue.created"] });
    await newIssue("hooks");
    const { name } = await deliveryWhen(webhook.name, () => true);
    const id = name.split("/")[1];
    /** The status once the attempt `attempts` has been recorded (its lease let go). */
    const statusAfter = async (attempts: number) => {
      let status = "";
      await eventually(async () => {
        const { rows } = await sql(`select status from notification_delivery where id = ${id} and attempts = ${attempts} and lease_until is null and last_error <> ''`);
        return !!(status = rows[0]?.status ?? "");
      }, 15_000);
      return status;
    };
    for (let attempt = 1; attempt < 10; attempt++) {
      assert.equal(await statusAfter(attempt), "PENDING", `after attempt ${attempt}`);
      await fastForward(name);
    }
    assert.equal(await statusAfter(10), "FAILED");
    const last = (await deliveriesTo(webhook.name))[0]!;
    assert.equal(last.attempts, 10);
    assert.match(last.lastError, /HTTP 503: maintenance/);
    const { rows } = await sql(`select count(*)::int as n from graphile_worker._private_jobs where key = 'notify:${last.name.split("/")[1]}'`);
    assert.equal(rows[0].n, 0, "no eleventh attempt is waiting");
    assert.equal(down.received.length, 10);
    await ok("DELETE", `/v1/${webhook.name}`);
  });

  it(":test sends a test message in the webhook's format and answers what the receiver said", async () => {
    const slack = await receiver();
    const ding = await receiver();
    ding.plan({ status: 200, body: JSON.stringify({ errcode: 300001, errmsg: "token is not exist" }) });
    const ok1 = await hook("hooks", { title: "slack", type: "SLACK", url: `${slack.origin}/services/x` });
    const bad = await hook("hooks", { title: "ding", type: "DINGTALK", url: `${ding.origin}/robot/send?access_token=t` });
    assert.deepEqual(await ok("POST", `/v1/${ok1.name}:test`, {}).then(({ status, body, error }) => ({ status, body, error })), { status: 200, body: "ok", error: undefined });
    assert.deepEqual(JSON.parse(slack.received[0]!.body), { text: `*Test message: slack*\n${ok1.name} · by users/admin` });
    const answer = await ok("POST", `/v1/${bad.name}:test`, {});
    assert.equal(answer.status, 200);
    assert.match(answer.error, /error code 300001/);
    const { rows } = await sql(`select action, resource from audit_log where method like '%TestWebhook' order by id`);
    assert.deepEqual(rows, [{ action: "bb.projects.testWebhook", resource: ok1.name }, { action: "bb.projects.testWebhook", resource: bad.name }]);
    assert.ok(!(await deliveriesTo(ok1.name)).length, "a test message is not logged");
    for (const w of [ok1, bad]) await ok("DELETE", `/v1/${w.name}`);
  });
});
