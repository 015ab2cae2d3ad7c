// An e-mail attempt ends within its 10 s (contract §16.1), whatever the SMTP
// server does: the whole conversation is bounded, not each of its steps, and
// at the deadline the connection is dropped, so that no attempt outlives the
// delivery's lease (30 s) and a second worker never sends beside it. Against
// real SMTP peers (smtp-server) that never greet, or take a message's DATA
// and never answer it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { emailChannel } from "../shared/notify/email.ts";
import { sendContext } from "../shared/notify/channel.ts";
import { sendMail, type SmtpConfig } from "../shared/platform/index.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { eventually, testSecrets } from "./helpers/instances.ts";
import { restAs, restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { type SmtpPeer, startSmtpPeer } from "./helpers/smtp.ts";
import { ADMIN } from "./helpers/users.ts";

const MAIL = { to: "dave@example.com", subject: "Approval requested", text: "An issue waits for you." };

function smtpAt(peer: SmtpPeer): SmtpConfig {
  return { from: "svc@example.com", fromName: "Svc", host: "127.0.0.1", port: peer.port, username: "", sealedPassword: undefined, encryption: "NONE", authentication: "NONE" };
}

/** How long `work` took (ms) and what it threw. */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; error: Error | undefined }> {
  const started = performance.now();
  try {
    await work();
    return { ms: performance.now() - started, error: undefined };
  } catch (error) {
    return { ms: performance.now() - started, error: error as Error };
  }
}

describe("an e-mail attempt against an SMTP server that hangs", () => {
  const peers: SmtpPeer[] = [];
  const peer = async (hang: "greeting" | "data") => {
    const started = await startSmtpPeer({ hang });
    peers.push(started);
    return started;
  };
  after(async () => {
    await Promise.all(peers.map((p) => p.close()));
  });

  for (const hang of ["greeting", "data"] as const) {
    it(`gives up at its deadline and drops the connection when the server hangs at the ${hang}`, async () => {
      const silent = await peer(hang);
      const { ms, error } = await timed(() => sendMail(smtpAt(silent), testSecrets(), MAIL, 1_000));
      assert.match(error?.message ?? "", /did not take the message within 1s/);
      assert.ok(ms >= 950 && ms < 2_000, `the send ended after ${Math.round(ms)} ms`);
      await eventually(async () => silent.closed === 1);
      // Hanging at DATA, the server holds the message it never acknowledged; hanging at the greeting, nothing reached it.
      assert.equal(silent.received.length, hang === "data" ? 1 : 0);
    });
  }

  describe("through the EMAIL channel", () => {
    let app: TestApp;
    const token: { admin?: string } = {};
    const { ok } = restAs(() => restClient(app.baseUrl), token, "admin");
    before(async () => {
      app = await startTestApp({ bootstrap: ADMIN });
      token.admin = await signInFirstAdmin(restClient(app.baseUrl));
    });
    after(() => app.close());

    it("ends the attempt within its 10 s, reading the setting included, to be tried again", async () => {
      const silent = await peer("data");
      await ok("PATCH", "/v1/settings/EMAIL?updateMask=email", { value: { email: { from: "svc@example.com", fromName: "Svc", smtp: { host: "127.0.0.1", port: silent.port, encryption: "NONE", authentication: "NONE" } } } });
      const payload = { event: "issue.approvalRequested", time: new Date().toISOString(), actor: "users/carol", resource: "projects/p/issues/1", title: "Add an index", link: "https://svc.example.com/projects/p/issues/1", detail: {} };
      const delivery = { id: 1, deliveryId: "00000000-0000-4000-8000-000000000001", channel: "EMAIL", event: payload.event, address: MAIL.to, payload, attempts: 1, eventTime: new Date() };
      let outcome: Awaited<ReturnType<typeof emailChannel.send>> | undefined;
      const { ms } = await timed(async () => (outcome = await emailChannel.send(delivery, sendContext(app.db, testSecrets(), true))));
      assert.equal(outcome?.kind, "retry");
      assert.match(outcome?.kind === "retry" ? outcome.error : "", /did not take the message within \d+(\.\d+)?s/);
      assert.ok(ms < 10_500, `the attempt took ${Math.round(ms)} ms`);
      assert.ok(ms > 9_000, `the attempt gave up early, after ${Math.round(ms)} ms`);
      await eventually(async () => silent.closed === 1);
      assert.equal(silent.received.length, 1);
    });
  });
});
