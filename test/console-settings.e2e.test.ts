// The web console's settings pages in a real browser (issue 28 item 5): an
// administrator saves the workspace title, which the header shows at once,
// and then the password policy on the same read of the setting; a MONITORING
// webhook on a loopback receiver (--webhook-allow-private) saved with its
// secret, which the page shows only as set, and its signed test with the
// receiver's answer on the page; the delivery log filtered to the webhook's
// event; the SMTP password and a Slack entry's token (its API at a loopback
// stand-in) saved and shown only as set, and the Slack test with what the
// stand-in answered. axe-core on each page.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { launchChromium, onPage, seriousAxeViolations, submitPassword } from "./helpers/console-browser.ts";
import { SLACK_TOKEN, startSlackPeer, type VendorPeer } from "./helpers/im-vendor-peers.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, STRONG_PASSWORD } from "./helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

type Json = Record<string, any>;
const TITLE = "Settings Test Works";
const SECRET = "hook-secret-1";

describe("web console settings", { timeout: 180_000 }, () => {
  let app: TestApp;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let slack: VendorPeer;
  let rest: ReturnType<typeof restClient>;
  let token: string;

  const signInAt = async (page: Page, path: string) => {
    await page.goto(`${app.baseUrl}${path}`);
    await submitPassword(page, ADMIN.loginId, STRONG_PASSWORD);
    await page.waitForURL((url) => url.pathname.startsWith(path));
  };
  const stored = async (name: string) => (await rest<Json>("GET", `/v1/settings/${name}`, { token })).body.value;

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN, flags: ["--webhook-allow-private"] });
    rest = restClient(app.baseUrl);
    token = await signInFirstAdmin(rest);
    receiver = await startWebhookReceiver();
    slack = await startSlackPeer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await slack?.close();
    await app?.close();
  });

  it("saves the workspace title, shown in the header at once, then the password policy under the etag the save returned", () =>
    onPage(browser, "admin-settings-profile", async (page) => {
      await signInAt(page, "/admin/workspace-profile");
      const title = page.getByLabel("Workspace title");
      await title.fill(TITLE);
      await page.getByRole("button", { name: "Save profile" }).click();
      await page.getByRole("region", { name: "Profile" }).getByText("Saved.").waitFor();
      await page.locator(".shell-header .brand", { hasText: TITLE }).waitFor();

      await page.getByLabel("Shortest password (characters)").fill("14");
      await page.getByLabel("Require a special character").uncheck();
      await page.getByRole("button", { name: "Save password policy" }).click();
      await page.getByRole("region", { name: "Password policy" }).getByText("Saved.").waitFor();
      const profile = (await stored("WORKSPACE_PROFILE")).workspaceProfile;
      assert.equal(profile.title, TITLE);
      assert.equal(profile.passwordRestriction.minLength, 14);
      assert.equal(profile.passwordRestriction.requireSpecialCharacter, false);
      assert.equal(profile.passwordRestriction.requireNumber, true, "a field the form left alone keeps its value");

      // Saving with nothing changed sends nothing.
      await page.getByRole("button", { name: "Save profile" }).click();
      await page.getByRole("region", { name: "Profile" }).getByText("Nothing changed.").waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "the workspace profile page");
    }));

  it("saves a webhook whose secret shows only as set, tests it with the receiver's answer, and lists its deliveries", () =>
    onPage(browser, "admin-settings-monitoring", async (page) => {
      await signInAt(page, "/admin/monitoring");
      await page.getByText("No webhook yet.").waitFor();
      await page.getByRole("button", { name: "Add a webhook" }).click();
      await page.getByLabel("Webhook 1 URL").fill(`${receiver.origin}/hook`);
      await page.getByLabel("Webhook 1 secret").fill(SECRET);
      await page.getByRole("button", { name: "Save webhooks" }).click();
      await page.getByText("Saved.").waitFor();
      await page.getByText("Set; leave empty to keep it.").waitFor();
      assert.equal(await page.getByLabel("Webhook 1 secret").inputValue(), "", "the secret is never shown");
      assert.equal(JSON.stringify(await stored("MONITORING")).includes(SECRET), false);

      receiver.plan({ status: 202, body: "accepted by the loopback receiver" });
      await page.getByRole("button", { name: "Send a test event" }).click();
      const answers = page.getByRole("status", { name: "What the webhooks answered" });
      await answers.getByText("accepted by the loopback receiver").waitFor();
      assert.match((await answers.locator("tbody tr").textContent()) ?? "", new RegExp(`${receiver.origin}/hook.*202.*delivered`));
      assert.ok(receiver.received.at(-1)?.headers["x-svc-signature"], "the test is signed");
      assert.deepEqual(await seriousAxeViolations(page), [], "the monitoring page with the test's answers");

      // An event for the webhook, then the log filtered to it.
      const paused = await rest("PATCH", "/v1/settings/EMERGENCY_PAUSE?updateMask=*", { token, body: { value: { emergencyPause: { enabled: true, reason: "drill" } } } });
      assert.equal(paused.status, 200);
      await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Notification deliveries" }).click();
      const filter = page.getByRole("form", { name: "Filter deliveries" });
      await filter.getByLabel("Channel").selectOption("MONITORING");
      await filter.getByLabel("Event").fill("emergencyPause.changed");
      await filter.getByRole("button", { name: "Search" }).click();
      const row = page.locator("tbody tr", { hasText: "emergencyPause.changed" });
      await row.waitFor();
      assert.match((await row.textContent()) ?? "", new RegExp(`MONITORING.*emergencyPause\\.changed.*${receiver.origin}/hook.*(PENDING|SENT|FAILED)`));
      await filter.getByLabel("Event").fill("issue.created");
      await filter.getByRole("button", { name: "Search" }).click();
      await page.getByText("No delivery matches.").waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "the delivery log");
    }));

  it("keeps the SMTP password and a Slack token input-only, and shows what Slack answered to the test", () =>
    onPage(browser, "admin-settings-im", async (page) => {
      await signInAt(page, "/admin/email");
      await page.getByLabel("SMTP host").fill("127.0.0.1");
      await page.getByLabel("SMTP password").fill("smtp-pass-1");
      await page.getByRole("button", { name: "Save smtp server" }).click();
      await page.getByText("Saved.").waitFor();
      await page.getByText("Set; leave empty to keep it.").waitFor();
      const email = (await stored("EMAIL")).email;
      assert.equal(email.smtp.host, "127.0.0.1");
      assert.equal(email.smtp.passwordSet, true);
      assert.equal(JSON.stringify(email).includes("smtp-pass-1"), false);
      assert.deepEqual(await seriousAxeViolations(page), [], "the e-mail page");

      await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Instant messaging" }).click();
      const card = page.getByRole("region", { name: "Slack" });
      await card.getByLabel("Send through Slack").check();
      await card.getByLabel("API base URL").fill(`${slack.origin}/api`);
      await card.getByLabel("Slack bot token").fill(SLACK_TOKEN);
      await card.getByLabel("Slack channel").fill("#ops");
      await card.getByRole("button", { name: "Save slack" }).click();
      await card.getByText("Saved.").waitFor();
      await card.getByText("Set; leave empty to keep it.").waitFor();
      assert.equal(JSON.stringify(await stored("APP_IM")).includes(SLACK_TOKEN), false);

      await card.getByRole("button", { name: "Send a test through Slack" }).click();
      const answer = card.getByRole("status", { name: "What Slack answered" });
      await answer.getByText("delivered").waitFor();
      assert.match((await answer.locator("tbody tr").textContent()) ?? "", /^chat200\{"ok":true,"channel":"#ops"/);
      assert.equal(slack.calls("/chat.postMessage").at(-1)?.data.channel, "#ops");
      assert.deepEqual(await seriousAxeViolations(page), [], "the instant messaging page with the test's answer");
    }));
});
