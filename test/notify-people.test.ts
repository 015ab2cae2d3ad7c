// Notifications to the people a change concerns (contract §16.3), end to end
// through REST and the real worker: the approval request reaches the holders
// of the step's role (directly or through a group) and the approval reaches
// the issue's creator, by EMAIL through a real SMTP peer and by direct
// message where the IM vendor finds them by e-mail (Slack users.lookupByEmail,
// Feishu/Lark batch_get_id, WeCom get_userid_by_email), else in the entry's
// chat naming them; vendors that find nobody (DingTalk, Teams, Telegram) post
// each event to their chat. Each event reaches each channel's targets once.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createMetrics } from "../shared/platform/metrics.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { appImPointingAt, type ImPeers, startImPeers } from "./helpers/im-vendor-peers.ts";
import { createInstanceOk, createPgTarget, eventually, pgAdminSource, testSecrets } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restAs, restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { startSmtpPeer, type SmtpPeer } from "./helpers/smtp.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;
type User = "admin" | "carol" | "dave";
const EXTERNAL_URL = "https://svc.example.com";

describe("notifications to the people concerned", () => {
  let app: TestApp;
  let worker: Worker;
  let rest: ReturnType<typeof restClient>;
  let peers: ImPeers;
  let smtp: SmtpPeer;
  let drop = async () => {};
  let target = "";
  const token: Partial<Record<User, string>> = {};
  const { call, ok } = restAs<User>(() => rest, token, "admin");
  const deliveries = async () => (((await ok("GET", "/v1/notificationDeliveries?pageSize=1000")).notificationDeliveries as Json[] | undefined) ?? []).reverse();
  const settled = async (count: number) => {
    await eventually(async () => {
      const all = await deliveries();
      return all.length === count && all.every((d) => d.status === "SENT");
    }, 30_000);
    return deliveries();
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN, flags: ["--webhook-allow-private", "--external-url", EXTERNAL_URL] });
    rest = restClient(app.baseUrl);
    worker = await startWorker({ url: app.database.url, db: app.db, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: true, externalUrl: EXTERNAL_URL });
    for (const id of ["carol", "dave", "erin"]) await makeUser(app.db, id);
    token.admin = await signInFirstAdmin(rest);
    token.carol = await signIn(rest, "carol");
    token.dave = await signIn(rest, "dave");
    // carol proposes; dave holds the approving role directly, erin through a group.
    await ok("POST", "/v1/groups?groupId=approvers", { title: "Approvers", members: [{ member: "user:login_id=erin", role: "MEMBER" }] });
    await ok("POST", "/v1/projects?projectId=people", { requirePlanCheckSuccess: false });
    const policy = await ok("GET", "/v1/projects/people:getIamPolicy");
    const bindings = (policy.bindings as Json[]).map((b) => (b.role === "roles/projectOwner" ? { ...b, members: [...b.members, "user:login_id=dave", "group:approvers"] } : b));
    bindings.push({ role: "roles/projectDeveloper", members: ["user:login_id=carol"] });
    await ok("POST", "/v1/projects/people:setIamPolicy", { policy: { etag: policy.etag, bindings } });
    const pg = await createPgTarget();
    drop = pg.drop;
    await createInstanceOk(rest, token.admin!, "people-prod", { engine: "POSTGRES", environment: "environments/prod", dataSources: [pgAdminSource()] });
    target = `instances/people-prod/databases/${pg.name}`;
    await eventually(async () => (await call("GET", `/v1/${target}`)).syncState === "OK");
    await ok("POST", "/v1/databases:transfer", { databases: [target], targetProject: "projects/people" });

    smtp = await startSmtpPeer();
    await ok("PATCH", "/v1/settings/EMAIL?updateMask=email", { value: { email: { from: "svc@example.com", fromName: "Svc", smtp: { host: "127.0.0.1", port: smtp.port, encryption: "NONE", authentication: "NONE" } } } });
    peers = await startImPeers();
    peers.slack.people.set("dave@example.com", "U-DAVE").set("carol@example.com", "U-CAROL");
    peers.feishu.people.set("dave@example.com", "ou_dave").set("carol@example.com", "ou_carol");
    peers.wecom.people.set("dave@example.com", "dave").set("carol@example.com", "carol");
    await ok("PATCH", "/v1/settings/APP_IM?updateMask=*", { value: { appIm: appImPointingAt(peers) } });
  });
  after(async () => {
    await worker?.stop();
    for (const peer of Object.values(peers ?? {})) await peer.close();
    await smtp?.close();
    await app?.close();
    await drop();
  });

  it("asks the step's role holders and tells the creator, by e-mail and by direct message or chat, each once", async () => {
    const plan = await ok("POST", "/v1/projects/people/plans", { title: "add <index> & go", specs: [{ changeDatabaseConfig: { targets: [target], statement: "select 1;" } }] }, "carol");
    await eventually(async () => (await ok("GET", `/v1/${plan.name}/planCheckRuns`)).planCheckRuns?.[0]?.status === "DONE", 60_000);
    const issue = await ok("POST", "/v1/projects/people/issues", { plan: plan.name }, "carol");
    assert.equal(issue.approvalStatus, "PENDING");
    const chatOnly = ["DINGTALK", "TEAMS", "TELEGRAM"];
    const finders = ["SLACK", "FEISHU", "WECOM", "LARK"];
    const asked = [
      ...finders.flatMap((c) => [`${c} issue.approvalRequested users/dave`, `${c} issue.approvalRequested users/erin`]),
      ...chatOnly.map((c) => `${c} issue.approvalRequested chat`),
      "EMAIL issue.approvalRequested users/dave",
      "EMAIL issue.approvalRequested users/erin",
    ];
    const created = [...finders, ...chatOnly].map((c) => `${c} issue.created chat`);
    const firstRound = await settled(created.length + asked.length);
    assert.deepEqual(firstRound.map((d) => `${d.channel} ${d.event} ${d.target}`).sort(), [...created, ...asked].sort());

    // E-mail: one to each approver, the subject the headline, the body the text and the link.
    assert.deepEqual(smtp.received.map((m) => m.to).sort(), [["dave@example.com"], ["erin@example.com"]]);
    for (const mail of smtp.received) {
      assert.match(mail.raw, /Subject: Approval requested: /);
      assert.ok(mail.raw.includes(`${EXTERNAL_URL}/${issue.name}`), mail.raw);
    }
    // Slack: dave found by e-mail gets a direct message; erin has no account, so the channel gets hers, naming her.
    assert.deepEqual(peers.slack.calls("/users.lookupByEmail").map((r) => new URL(r.path, "http://x").searchParams.get("email")).sort(), ["dave@example.com", "erin@example.com"]);
    const slackAsks = peers.slack.calls("/chat.postMessage").filter((r) => /^\*Approval requested/.test(r.data.text));
    assert.deepEqual(slackAsks.map((r) => [r.data.channel, r.data.text.split("\n").slice(0, 2)]).sort(), [
      ["#ops", ["*Approval requested: add &lt;index&gt; &amp; go*", "For erin@example.com"]],
      ["U-DAVE", ["*Approval requested: add &lt;index&gt; &amp; go*", `${issue.name} · by users/carol`]],
    ]);
    // Feishu and WeCom find dave (open_id, userid) and send erin's to the chat; Lark finds nobody.
    const feishuTo = peers.feishu.calls("/im/v1/messages").map((r) => `${r.path.split("=")[1]} ${r.data.receive_id}`);
    assert.deepEqual(feishuTo.sort(), ["chat_id oc_feishu", "chat_id oc_feishu", "open_id ou_dave"]);
    assert.deepEqual(peers.wecom.calls("/message/send").map((r) => [r.data.touser, r.data.agentid]), [["dave", 1000002]]);
    assert.equal(peers.wecom.calls("/appchat/send").length, 2);
    assert.deepEqual(peers.lark.calls("/im/v1/messages").map((r) => r.data.receive_id), ["oc_lark", "oc_lark", "oc_lark"]);
    for (const peer of [peers.dingtalk, peers.teams, peers.telegram]) assert.equal(peer.received.filter((r) => /messages|sendMessage/i.test(r.path)).length, 2);

    // dave approves: the creator, carol, is told; dave is not told of his own approval.
    await ok("POST", `/v1/${issue.name}:approve`, { comment: "fine" }, "dave");
    const approved = [...finders.map((c) => `${c} issue.approved users/carol`), ...chatOnly.map((c) => `${c} issue.approved chat`), "EMAIL issue.approved users/carol"];
    const secondRound = (await settled(firstRound.length + approved.length)).slice(firstRound.length);
    assert.deepEqual(secondRound.map((d) => `${d.channel} ${d.event} ${d.target}`).sort(), approved.sort());
    assert.deepEqual(smtp.received.at(-1)!.to, ["carol@example.com"]);
    assert.match(smtp.received.at(-1)!.raw, /Subject: Issue approved: /);
    assert.equal(peers.slack.calls("/chat.postMessage").at(-1)!.data.channel, "U-CAROL");
    assert.equal(peers.feishu.calls("/im/v1/messages").at(-1)!.data.receive_id, "ou_carol");
    assert.equal(peers.wecom.calls("/message/send").at(-1)!.data.touser, "carol");
    // Each event reached each target once.
    const all = await deliveries();
    assert.equal(new Set(all.map((d) => `${d.channel} ${d.event} ${d.target}`)).size, all.length);
    assert.ok(all.every((d) => d.attempts === 1));
    assert.equal(smtp.received.length, 3);
  });
});
