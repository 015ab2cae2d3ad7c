// The console's sign-in extras and the account page in a real browser (issue
// 28): voluntary second-factor enrolment on /account and a TOTP sign-in
// afterwards; the watermark naming the user when WORKSPACE_PROFILE.watermark
// is on, and none when it is off; self-service sign-up and sign-in with an
// e-mail code (a loopback SMTP peer); single sign-on through a real OpenID
// provider on loopback, there and back, and a refused one shown on the
// sign-in page (StartSso, the callback and the ACS send a browser there);
// the sign-in page following disallow_password_signin and
// disallow_signup.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium, onPage, seriousAxeViolations, submitPassword } from "./helpers/console-browser.ts";
import { eventually, mailedCode, type MailingApp, startMailingApp } from "./helpers/email.ts";
import { totpCode } from "./helpers/mfa.ts";
import { startOidcProvider, type TestOidcProvider } from "./helpers/oidc-provider.ts";
import { oidcProviderJson, setProfileField } from "./helpers/sso.ts";
import { STRONG_PASSWORD } from "./helpers/users.ts";

const NEW_PASSWORD = "Account-Page-Pass-7";

describe("web console: sign-in extras and the account page", { timeout: 180_000 }, () => {
  let mailing: MailingApp;
  let browser: Browser;
  let idp: TestOidcProvider;
  const url = (path: string) => `${mailing.app.baseUrl}${path}`;

  /** Writes a WORKSPACE_PROFILE field and waits until the server reads it back. */
  const setProfile = async (field: string, value: unknown) => {
    await setProfileField(mailing.rest, mailing.admin, field, value);
  };
  const setWatermark = async (on: boolean) => {
    const { rest, admin } = mailing;
    const reply = await rest("PATCH", "/v1/settings/WORKSPACE_PROFILE?updateMask=workspaceProfile.watermark", {
      token: admin,
      body: { value: { workspaceProfile: { watermark: on } } },
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    await eventually(
      () => rest<any>("GET", "/v1/settings/WORKSPACE_PROFILE", { token: admin }),
      (read) => (read.body.value.workspaceProfile.watermark ?? false) === on,
      "the watermark setting",
    );
  };
  const signOut = async (page: Page) => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/auth\/sign-in$/);
  };

  before(async () => {
    mailing = await startMailingApp(["vera", "eli"]);
    browser = await launchChromium();
    idp = await startOidcProvider(url("/v1/auth/oidc/callback"));
    const created = await mailing.rest("POST", "/v1/idps?idpId=corp", { token: mailing.admin, body: oidcProviderJson(idp.issuer) });
    assert.equal(created.status, 200, JSON.stringify(created.body));
  });
  after(async () => {
    await browser?.close();
    await idp?.close();
    await mailing?.smtp.close();
    await mailing?.app.close();
  });

  it("enrols a second factor on the account page (narrow, dark); the next sign-in asks for its code", () =>
    onPage(browser, "account-mfa-enrolment", async (page) => {
      await page.goto(url("/account"));
      await submitPassword(page, "vera", STRONG_PASSWORD);
      await page.waitForURL(/\/account$/);
      await page.getByRole("heading", { name: "Your account", level: 1 }).waitFor();
      assert.equal(await page.locator(".watermark").count(), 0, "no watermark while the setting is off");
      assert.deepEqual(await seriousAxeViolations(page), [], "the account page");

      // A wrong current password is refused with the server's message; the right one changes it.
      await page.getByLabel("Current password").fill("not-my-password");
      await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel("Repeat the new password").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByRole("alert").filter({ hasText: "current_password is wrong" }).waitFor();
      await page.getByLabel("Current password").fill(STRONG_PASSWORD);
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByText("Your password has been changed.").waitFor();

      await page.getByRole("button", { name: "Set up two-step verification" }).click();
      await page.getByRole("img", { name: "QR code of the authenticator secret" }).waitFor();
      const secret = (await page.locator("code.secret").textContent())!.trim();
      await page.getByLabel("Code from the app").fill(await totpCode(secret));
      await page.getByRole("button", { name: "Turn on" }).click();
      const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
      await codes.first().waitFor();
      assert.equal(await codes.count(), 10);
      assert.deepEqual(await seriousAxeViolations(page), [], "the recovery codes");
      await page.getByRole("checkbox", { name: "I have saved these codes" }).check();
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByText("On: signing in asks for a code").waitFor();
      await page.getByRole("button", { name: "Replace the recovery codes" }).waitFor();
      await page.getByRole("button", { name: "Turn off two-step verification" }).waitFor();

      await signOut(page);
      await submitPassword(page, "vera", NEW_PASSWORD);
      await page.getByRole("heading", { name: "Two-step verification" }).waitFor();
      // The enrolment spent this time step's code; the next step's is accepted (±1 step).
      await page.getByLabel("Verification code").fill(await totpCode(secret, 1));
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(/\/issues$/);
      await page.getByRole("link", { name: "vera", exact: true }).click();
      await page.getByText("On: signing in asks for a code").waitFor();
    }, { viewport: { width: 390, height: 844 }, colorScheme: "dark" }));

  it("tiles the user's name over every page while the watermark is on, without taking clicks", async () => {
    await setWatermark(true);
    await onPage(browser, "watermark", async (page) => {
      await page.goto(url("/projects"));
      await submitPassword(page, "eli", STRONG_PASSWORD);
      await page.waitForURL(/\/projects$/);
      const layer = page.locator(".watermark");
      await layer.waitFor({ state: "attached" });
      const style = await layer.evaluate((el) => {
        const css = getComputedStyle(el);
        return { pointerEvents: css.pointerEvents, position: css.position, image: decodeURIComponent(css.backgroundImage) };
      });
      assert.deepEqual([style.pointerEvents, style.position], ["none", "fixed"]);
      assert.match(style.image, /<text[^>]*>eli · eli@example\.com<\/text>/);
      // Clicks reach the page below it.
      await page.getByRole("link", { name: "Issues", exact: true }).click();
      await page.waitForURL(/\/issues$/);
      // Removed or hidden in the browser's tools, it comes back.
      await page.evaluate(() => document.querySelector(".watermark")!.remove());
      await layer.waitFor({ state: "attached" });
      await page.evaluate(() => ((document.querySelector(".watermark") as HTMLElement).style.display = "none"));
      await page.waitForFunction(() => getComputedStyle(document.querySelector(".watermark")!).display === "block");
      assert.equal(await layer.count(), 1);
      assert.deepEqual(await seriousAxeViolations(page), [], "a page under the watermark");
    });
    await setWatermark(false);
  });

  it("signs up, and signs in with a code sent by e-mail", async () => {
    await setProfile("allowEmailCodeSignin", true);
    await onPage(browser, "sign-up-and-email-code", async (page) => {
      await page.goto(url("/issues"));
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.waitForURL(/\/auth\/sign-up\?redirect=%2Fissues$/);
      assert.deepEqual(await seriousAxeViolations(page), [], "the sign-up page");
      await page.getByLabel("Login ID").fill("sam");
      await page.getByLabel("Name").fill("Sam Reyes");
      await page.getByLabel("E-mail address").fill("sam@example.com");
      await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel("Repeat the new password").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Create the account" }).click();
      await page.waitForURL(/\/issues$/);
      assert.equal(await page.locator(".user-name").textContent(), "Sam Reyes");
      await signOut(page);

      await page.getByRole("button", { name: "Use a code sent by e-mail instead" }).click();
      await page.getByLabel("E-mail address").fill("eli@example.com");
      await page.getByRole("button", { name: "Send me a code" }).click();
      await page.getByText("If an account uses eli@example.com, a 6-digit code is on its way.").waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "the e-mail code step");
      const code = mailedCode((await mailing.smtp.next()).raw);
      await page.getByLabel("Code from the e-mail").fill(code === "000000" ? "000001" : "000000");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("alert").filter({ hasText: "invalid login id or e-mail code" }).waitFor();
      await page.getByLabel("Code from the e-mail").fill(code);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(/\/issues$/);
      assert.equal(await page.locator(".user-name").textContent(), "eli");
    });
  });

  it("sends a browser whose sign-on is refused to the sign-in page with the message, and API clients their JSON error", async () => {
    const navigate = (path: string, init: RequestInit = {}) =>
      fetch(url(path), { redirect: "manual", ...init, headers: { accept: "text/html,*/*", ...init.headers } });
    const start = await navigate("/v1/auth/idps/corp:start?redirect=%2Fprojects");
    assert.equal(start.status, 303);
    const back = new URL(start.headers.get("location")!, url("/"));
    assert.equal(back.pathname, "/auth/sign-in");
    assert.match(back.searchParams.get("sso_error")!, /no external URL/);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const acs = await navigate("/v1/auth/saml/acs", { method: "POST", headers: form, body: "SAMLResponse=bm90IHNhbWw%3D&RelayState=nothing" });
    assert.equal(acs.status, 303);
    assert.match(acs.headers.get("location")!, /^\/auth\/sign-in\?sso_error=./);
    const api = await fetch(url("/v1/auth/idps/corp:start"), { redirect: "manual" });
    assert.deepEqual([api.status, ((await api.json()) as { code: string }).code], [400, "failed_precondition"]);
  });

  it("signs in through the identity provider and back to the page asked for; a refused sign-on is shown on the sign-in page", async () => {
    await setProfile("externalUrl", mailing.app.baseUrl);
    await onPage(browser, "single-sign-on", async (page) => {
      idp.account = { sub: "alice", email: "alice@example.com", name: "Alice", groups: [] };
      await page.goto(url("/projects"));
      await page.waitForURL(/\/auth\/sign-in\?redirect=%2Fprojects$/);
      await page.getByRole("link", { name: "Continue with Company OIDC" }).click();
      await page.waitForURL(/\/projects$/);
      await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
      assert.equal(await page.locator(".user-name").textContent(), "Alice");
      await page.locator(".user-name").click();
      await page.getByText("You sign in through your identity provider").waitFor();
      await signOut(page);

      idp.account = { sub: "bob", email: "bob@example.com", email_verified: false, name: "Bob", groups: [] };
      await page.getByRole("link", { name: "Continue with Company OIDC" }).click();
      await page.waitForURL(/\/auth\/sign-in$/);
      const refusal = await page.getByRole("alert").textContent();
      assert.match(refusal ?? "", /^Single sign-on did not complete: .*verified/);
      assert.doesNotMatch(page.url(), /sso_error/, "the message leaves the address bar");
    });
  });

  it("keeps password sign-in for administrators only, and sign-up out of sight, when the workspace turns them off", async () => {
    await setProfile("disallowPasswordSignin", true);
    await onPage(browser, "password-sign-in-off", async (page) => {
      await page.goto(url("/auth/sign-in"));
      await page.getByLabel("E-mail address").waitFor();
      assert.equal(await page.getByLabel("Password", { exact: true }).count(), 0);
      assert.equal(await page.getByRole("link", { name: "Create an account" }).count(), 0);
      await page.getByRole("link", { name: "Continue with Company OIDC" }).waitFor();
      await page.getByRole("button", { name: "Administrator sign-in with a password" }).click();
      await submitPassword(page, "admin", STRONG_PASSWORD);
      await page.waitForURL(/\/issues$/);
    });
    await setProfile("disallowPasswordSignin", false);
    await setProfile("disallowSignup", true);
    await onPage(browser, "sign-up-off", async (page) => {
      await page.goto(url("/auth/sign-in"));
      await page.getByLabel("Password", { exact: true }).waitFor();
      assert.equal(await page.getByRole("link", { name: "Create an account" }).count(), 0);
    });
  });
});
