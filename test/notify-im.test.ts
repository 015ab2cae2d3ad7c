// The IM channels end to end through REST and the real worker, against
// in-process stand-ins of every vendor's API on loopback
// (--webhook-allow-private, each APP_IM entry's apiBaseUrl pointing at its
// peer): the exact requests of each protocol (token exchange, message call,
// auth headers, bodies), tokens cached per process and fetched again once
// expired, failures the vendor states in its body, the APP_IM test call, and
// no credential or token in the log, the logs, the answers or the audit.
// Events come from switching the emergency pause, which concerns nobody in
// particular: each entry's chat gets it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createLogger } from "../shared/platform/logger.ts";
import { createMetrics } from "../shared/platform/metrics.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { appImPointingAt, IM_SECRETS, type ImPeers, SLACK_TOKEN, startImPeers, TELEGRAM_TOKEN } from "./helpers/im-vendor-peers.ts";
import { eventually, testSecrets } from "./helpers/instances.ts";
import { restAs, restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;
const EXTERNAL_URL = "https://svc.example.com";
const IM_CHANNELS = ["SLACK", "FEISHU", "WECOM", "LARK", "DINGTALK", "TEAMS", "TELEGRAM"];

describe("IM channel deliveries", () => {
  let app: TestApp;
  let worker: Worker;
  let rest: ReturnType<typeof restClient>;
  let peers: ImPeers;
  const token: { admin?: string } = {};
  const logLines: string[] = [];
  let paused = false;
  const { ok } = restAs<"admin">(() => rest, token, "admin");
  /** Runs the waiting retry of the delivery now, as if its back-off had passed. */
  const fastForward = (name: string) => adminQuery(`update graphile_worker._private_jobs set run_at = now() where key = 'notify:${name.split("/")[1]}'`, app.database.url);

  const logger = () => createLogger({ json: true, debug: true, destination: { write: (line: string) => void logLines.push(line) } });
  const imDeliveries = async () => ((await ok("GET", "/v1/notificationDeliveries?pageSize=1000")).notificationDeliveries as Json[] | undefined ?? []).filter((d) => IM_CHANNELS.includes(d.channel));
  /** Switches the emergency pause and waits until each IM channel's delivery of it has been attempted (SENT, FAILED, or PENDING with an error). */
  const flipPause = async () => {
    const before = (await imDeliveries()).length;
    paused = !paused;
    await ok("PATCH", "/v1/settings/EMERGENCY_PAUSE?updateMask=*", { value: { emergencyPause: { enabled: paused, reason: paused ? "drill <b>&</b>" : "" } } });
    let fresh: Json[] = [];
    await eventually(async () => {
      const all = await imDeliveries();
      fresh = all.slice(0, all.length - before);
      return fresh.length === IM_CHANNELS.length && fresh.every((d) => d.status !== "PENDING" || !!d.lastError);
    }, 20_000);
    return Object.fromEntries(fresh.map((d) => [d.channel, d])) as Record<string, Json>;
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN, flags: ["--webhook-allow-private", "--external-url", EXTERNAL_URL], deps: { logger: logger() } });
    rest = restClient(app.baseUrl);
    worker = await startWorker({ url: app.database.url, db: app.db, logger: logger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: true, externalUrl: EXTERNAL_URL });
    token.admin = await signInFirstAdmin(rest);
    peers = await startImPeers();
    await ok("PATCH", "/v1/settings/APP_IM?updateMask=*", { value: { appIm: appImPointingAt(peers) } });
  });
  after(async () => {
    await worker?.stop();
    for (const peer of Object.values(peers ?? {})) await peer.close();
    await app?.close();
  });

  it("sends an event concerning nobody in particular to each entry's chat, once, in each vendor's protocol", async () => {
    const sent = await flipPause();
    for (const channel of IM_CHANNELS) {
      assert.equal(sent[channel]?.status, "SENT", `${channel}: ${JSON.stringify(sent[channel])}`);
      assert.equal(sent[channel]!.target, "chat");
      assert.equal(sent[channel]!.attempts, 1);
    }
    // Slack: chat.postMessage with the bot token to the channel, mrkdwn with the reason escaped.
    assert.equal(peers.slack.received.length, 1);
    const slack = peers.slack.calls("/api/chat.postMessage")[0]!;
    assert.equal(slack.method, "POST");
    assert.equal(slack.headers.authorization, `Bearer ${SLACK_TOKEN}`);
    assert.equal(slack.data.channel, "#ops");
    assert.equal(slack.data.text, `*Emergency pause changed: Emergency pause on: drill &lt;b&gt;&amp;&lt;/b&gt;*\nsettings/EMERGENCY_PAUSE · by users/admin\n<${EXTERNAL_URL}/settings/EMERGENCY_PAUSE|Open>`);
    // Feishu and Lark: a tenant token from the app id and secret, then the message to the chat.
    for (const [peer, appId, chatId] of [[peers.feishu, "feishu-app", "oc_feishu"], [peers.lark, "lark-app", "oc_lark"]] as const) {
      assert.deepEqual(peer.received.map((r) => `${r.method} ${r.path}`), ["POST /open-apis/auth/v3/tenant_access_token/internal", "POST /open-apis/im/v1/messages?receive_id_type=chat_id"]);
      assert.deepEqual(peer.received[0]!.data, { app_id: appId, app_secret: "app-secret" });
      const message = peer.received[1]!;
      assert.equal(message.headers.authorization, "Bearer tenant-access-token-1");
      assert.equal(message.data.receive_id, chatId);
      assert.equal(message.data.msg_type, "text");
      assert.equal(JSON.parse(message.data.content).text, `Emergency pause changed: Emergency pause on: drill <b>&</b>\nsettings/EMERGENCY_PAUSE · by users/admin\n${EXTERNAL_URL}/settings/EMERGENCY_PAUSE`);
    }
    // WeCom: gettoken with the corp id and secret in the query, then appchat/send with the token.
    assert.deepEqual(peers.wecom.received.map((r) => `${r.method} ${r.path}`), ["GET /cgi-bin/gettoken?corpid=corp-1&corpsecret=wecom-secret", "POST /cgi-bin/appchat/send?access_token=wecom-access-token-1"]);
    assert.deepEqual(peers.wecom.received[1]!.data.chatid, "wecom-chat");
    assert.equal(peers.wecom.received[1]!.data.msgtype, "text");
    // DingTalk: oauth2 accessToken from the client id and secret, then the robot's group message.
    assert.deepEqual(peers.dingtalk.received.map((r) => `${r.method} ${r.path}`), ["POST /v1.0/oauth2/accessToken", "POST /v1.0/robot/groupMessages/send"]);
    assert.deepEqual(peers.dingtalk.received[0]!.data, { appKey: "ding-client", appSecret: "ding-secret" });
    const ding = peers.dingtalk.received[1]!;
    assert.equal(ding.headers["x-acs-dingtalk-access-token"], "ding-access-token-1");
    assert.equal(ding.data.robotCode, "ding-robot");
    assert.equal(ding.data.openConversationId, "cid-ding");
    assert.equal(ding.data.msgKey, "sampleText");
    assert.match(JSON.parse(ding.data.msgParam).content, /^Emergency pause changed/);
    // Teams: a client-credentials token of the tenant (a form), then the chat message in HTML, escaped.
    assert.deepEqual(peers.teams.received.map((r) => `${r.method} ${r.path}`), ["POST /tenant-1/oauth2/v2.0/token", `POST /v1.0/chats/${encodeURIComponent("19:chat@thread.v2")}/messages`]);
    assert.deepEqual(peers.teams.received[0]!.data, { client_id: "teams-client", client_secret: "teams-secret", scope: "https://graph.microsoft.com/.default", grant_type: "client_credentials" });
    const teams = peers.teams.received[1]!;
    assert.equal(teams.headers.authorization, "Bearer graph-access-token-1");
    assert.equal(teams.data.body.contentType, "html");
    assert.equal(
      teams.data.body.content,
      `<b>Emergency pause changed: Emergency pause on: drill &lt;b&gt;&amp;&lt;/b&gt;</b><br>settings/EMERGENCY_PAUSE · by users/admin<br><a href="${EXTERNAL_URL}/settings/EMERGENCY_PAUSE">${EXTERNAL_URL}/settings/EMERGENCY_PAUSE</a>`,
    );
    // Telegram: sendMessage with the bot token in the path to the chat id, plain text.
    assert.deepEqual(peers.telegram.received.map((r) => `${r.method} ${r.path}`), [`POST /bot${TELEGRAM_TOKEN}/sendMessage`]);
    assert.equal(peers.telegram.received[0]!.data.chat_id, "-1001");
    assert.match(peers.telegram.received[0]!.data.text, /^Emergency pause changed/);
  });

  it("uses a cached token for the next message, and fetches a new one once it has expired", async () => {
    await flipPause();
    for (const peer of [peers.feishu, peers.lark, peers.wecom, peers.dingtalk, peers.teams]) {
      const tokenCalls = peer.received.filter((r) => /token/i.test(r.path.split("?")[0]!));
      assert.equal(tokenCalls.length, 1, `one token call for two messages: ${peer.received.map((r) => r.path)}`);
      assert.equal(peer.received.length, 3);
    }
    assert.equal(peers.wecom.received[2]!.path, "/cgi-bin/appchat/send?access_token=wecom-access-token-1");
    // A token living 2 s is kept for 1.8 s (a tenth is the margin), then fetched again.
    peers.feishu.tokenLifetimeS = 2;
    await ok("PATCH", "/v1/settings/APP_IM?updateMask=*", { value: { appIm: appImPointingAt(peers) } });
    await flipPause(); // the same credentials: the cached token (7200 s) still serves
    assert.equal(peers.feishu.calls("/tenant_access_token/internal").length, 1);
    peers.feishu.plan("/im/v1/messages", { status: 400, body: { code: 99991663, msg: "Invalid access token for authorization." } });
    await flipPause(); // the vendor refuses the token: forgotten, and the attempt tried again with a new one
    const refused = (await imDeliveries()).find((d) => d.channel === "FEISHU")!;
    assert.equal(refused.status, "PENDING");
    assert.match(refused.lastError, /im\.messages: the access token was refused \(Invalid access token for authorization\. \(code 99991663\)\)/);
    await fastForward(refused.name);
    await eventually(async () => (await imDeliveries()).find((d) => d.name === refused.name)?.status === "SENT");
    assert.equal(peers.feishu.calls("/tenant_access_token/internal").length, 2);
    assert.equal(peers.feishu.received.at(-1)!.headers.authorization, "Bearer tenant-access-token-2");
    await flipPause(); // within the new token's 1.8 s
    assert.equal(peers.feishu.calls("/tenant_access_token/internal").length, 2);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await flipPause();
    assert.equal(peers.feishu.calls("/tenant_access_token/internal").length, 3);
    assert.equal(peers.feishu.received.at(-1)!.headers.authorization, "Bearer tenant-access-token-3");
  });

  it("records a failure the vendor states in its answer, with the vendor's message, final at once", async () => {
    peers.slack.plan("/chat.postMessage", { status: 200, body: { ok: false, error: "channel_not_found" } });
    peers.feishu.plan("/im/v1/messages", { status: 200, body: { code: 230002, msg: "Bot/User can NOT be out of the chat." } });
    peers.wecom.plan("/appchat/send", { status: 200, body: { errcode: 86003, errmsg: "chat not exist" } });
    peers.dingtalk.plan("/robot/groupMessages/send", { status: 400, body: { code: "resource.not.found", message: "group not found" } });
    peers.teams.plan("/messages", { status: 403, body: { error: { code: "Forbidden", message: "Missing role permissions on the request." } } });
    peers.telegram.plan("/sendMessage", { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } });
    peers.lark.plan("/im/v1/messages", { status: 429, body: { code: 99991400, msg: "request trigger frequency limit" } });
    const outcome = await flipPause();
    const failed = (channel: string, error: string) => {
      assert.equal(outcome[channel]!.status, "FAILED", channel);
      assert.equal(outcome[channel]!.attempts, 1);
      assert.equal(outcome[channel]!.lastError, error);
    };
    failed("SLACK", "chat.postMessage: channel_not_found");
    failed("FEISHU", "im.messages: Bot/User can NOT be out of the chat. (code 230002)");
    failed("WECOM", "appchat/send: chat not exist (errcode 86003)");
    failed("DINGTALK", "robot/groupMessages/send: HTTP 400: group not found (code resource.not.found)");
    failed("TEAMS", "chats/messages: HTTP 403: Missing role permissions on the request.");
    failed("TELEGRAM", "sendMessage: HTTP 400: Bad Request: chat not found");
    // A 429 is tried again.
    assert.equal(outcome.LARK!.status, "PENDING");
    assert.equal(outcome.LARK!.lastError, "im.messages: HTTP 429: request trigger frequency limit (code 99991400)");
    await fastForward(outcome.LARK!.name);
    await eventually(async () => (await imDeliveries()).find((d) => d.name === outcome.LARK!.name)?.status === "SENT");
  });

  it("sends a test message through each enabled entry, or the one named, and answers what each vendor said", async () => {
    const reply = await ok("POST", "/v1/settings/APP_IM:test", {});
    assert.deepEqual(reply.results.map((r: Json) => [r.type, r.target, r.status, r.error ?? ""]), IM_CHANNELS.map((type) => [type, "chat", type === "TEAMS" ? 201 : 200, ""]));
    const slackAnswer = JSON.parse(reply.results[0].body);
    assert.equal(slackAnswer.ok, true);
    assert.equal(slackAnswer.channel, "#ops");
    assert.match(peers.slack.received.at(-1)!.data.text, /^\*Test message\*/);
    peers.telegram.plan("/sendMessage", { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } });
    const one = await ok("POST", "/v1/settings/APP_IM:test", { type: "TELEGRAM" });
    assert.deepEqual(one.results, [{ type: "TELEGRAM", target: "chat", status: 400, body: JSON.stringify({ ok: false, error_code: 400, description: "Bad Request: chat not found" }), error: "sendMessage: HTTP 400: Bad Request: chat not found" }]);
    const audit = await adminQuery(`select resource, status_code from audit_log where action = 'bb.settings.testAppIm' order by id`, app.database.url);
    assert.deepEqual(audit.rows.map((r) => [r.resource, r.status_code]), [["settings/APP_IM", "ok"], ["settings/APP_IM", "ok"]]);
  });

  it("shows no credential or token in the log, the logs, the setting or the audit", async () => {
    const shown = JSON.stringify([await ok("GET", "/v1/notificationDeliveries?pageSize=1000"), await ok("GET", "/v1/settings/APP_IM")]);
    const { rows } = await adminQuery(`select coalesce(string_agg(request::text || response::text, ' '), '') as text from audit_log`, app.database.url);
    const stored = await adminQuery(`select coalesce(string_agg(last_error || target, ' '), '') as text from notification_delivery`, app.database.url);
    for (const secret of IM_SECRETS) {
      assert.ok(!shown.includes(secret), `${secret} shown`);
      assert.ok(!rows[0].text.includes(secret), `${secret} in the audit`);
      assert.ok(!stored.rows[0].text.includes(secret), `${secret} in the delivery log`);
      assert.ok(!logLines.some((line) => line.includes(secret)), `${secret} logged`);
    }
    assert.ok(logLines.length > 0);
    const setting = (await ok("GET", "/v1/settings/APP_IM")).value.appIm.settings as Json[];
    assert.deepEqual(setting.find((s) => s.type === "SLACK"), { type: "SLACK", enabled: true, apiBaseUrl: `${peers.slack.origin}/api`, slack: { tokenSet: true, channel: "#ops" } });
  });
});
