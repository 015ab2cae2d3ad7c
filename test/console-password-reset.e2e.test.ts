// The forgotten-password pages of the web console in a real browser (contract
// §5.3): the request page, the e-mail through a real SMTP server on loopback,
// the page its link opens, the token dropped from the address bar, a refusal
// of the policy shown as the server words it, then a sign-in with the new
// password; a spent link is refused on the page.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import type { TestApp } from "./helpers/app.ts";
import { launchChromium, onPage, submitPassword } from "./helpers/console-browser.ts";
import { setProfileField, startMailingApp } from "./helpers/email.ts";
import type { restClient } from "./helpers/rest.ts";
import type { SmtpPeer } from "./helpers/smtp.ts";

const NEW_PASSWORD = "Reset-By-Mail-Pass-8";

/** The reset link of a mail (quoted-printable `=` undone). */
function mailedLink(raw: string): string {
  const match = /(https?:\/\/\S+\/auth\/password-reset\?token(?:=3D|=)\S+)/.exec(raw);
  assert.ok(match, `no reset link in the mail:\n${raw}`);
  return match[1]!.replace("token=3D", "token=");
}

describe("web console forgotten password", { timeout: 120_000 }, () => {
  let app: TestApp;
  let smtp: SmtpPeer;
  let rest: ReturnType<typeof restClient>;
  let browser: Browser;

  before(async () => {
    let admin: string;
    ({ app, rest, smtp, admin } = await startMailingApp(["rosa"]));
    await setProfileField(rest, admin, "externalUrl", app.baseUrl);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await smtp?.close();
    await app?.close();
  });

  it("mails a link whose page sets a new password, once (on a narrow window)", () =>
    onPage(browser, "password-reset", async (page) => {
      await page.goto(`${app.baseUrl}/auth/sign-in`);
      await page.getByRole("link", { name: "Forgot your password?" }).click();
      await page.getByLabel("E-mail address").fill("rosa@example.com");
      await page.getByRole("button", { name: "Send the link" }).click();
      await page.getByRole("status").filter({ hasText: "If an account of this workspace uses rosa@example.com" }).waitFor();
      const link = mailedLink((await smtp.next()).raw);

      await page.goto(link);
      await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
      assert.equal(new URL(page.url()).search, "", "the token leaves the address bar");
      await page.getByLabel("New password", { exact: true }).fill("abc");
      await page.getByLabel("Repeat the new password").fill("abc");
      await page.getByRole("button", { name: "Set the password" }).click();
      assert.match((await page.getByRole("alert").textContent()) ?? "", /at least \d+ characters/);
      await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel("Repeat the new password").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Set the password" }).click();
      await page.getByRole("status").filter({ hasText: "Your password has been changed" }).waitFor();

      await page.getByRole("link", { name: "Sign in" }).click();
      await submitPassword(page, "rosa", NEW_PASSWORD);
      await page.waitForURL(/\/issues$/);

      // The same link again: the server's refusal, on the page.
      await page.goto(link);
      await page.getByLabel("New password", { exact: true }).fill(`${NEW_PASSWORD}!`);
      await page.getByLabel("Repeat the new password").fill(`${NEW_PASSWORD}!`);
      await page.getByRole("button", { name: "Set the password" }).click();
      await page.getByRole("alert").filter({ hasText: "the password-reset token is invalid, used or expired; request a new link" }).waitFor();
    }, { viewport: { width: 400, height: 800 } }));
});
