// The web console in a real browser (issue 28): headless Chromium against the
// API process serving web/dist, over a real PostgreSQL. Sign-in with the
// forced first password change, refusals shown with the server's message,
// the session in HttpOnly cookies only, the banners, sign-out; a second-factor
// sign-in with a TOTP code and with a recovery code.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { launchChromium, onPage, seriousAxeViolations, submitPassword } from "./helpers/console-browser.ts";
import { enrol, totpCode, wrongCode } from "./helpers/mfa.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn } from "./helpers/sessions.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

const NEW_PASSWORD = "Console-Chosen-Pass-4";

describe("web console sign-in", { timeout: 120_000 }, () => {
  let app: TestApp;
  let browser: Browser;
  let rest: ReturnType<typeof restClient>;

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it("takes the first administrator through the forced password change into the console, and out again", () =>
    onPage(browser, "first-sign-in-and-sign-out", async (page) => {
    await page.goto(`${app.baseUrl}/issues?view=all`);
    await page.waitForURL(/\/auth\/sign-in\?redirect=%2Fissues%3Fview%3Dall$/);
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Sign in");
    assert.deepEqual(await seriousAxeViolations(page), [], "the sign-in page");

    await submitPassword(page, ADMIN.loginId, "not-the-password");
    await page.getByRole("alert").filter({ hasText: "invalid login id or password" }).waitFor();

    await submitPassword(page, ADMIN.loginId, ADMIN.password);
    await page.waitForURL(/\/auth\/password-change\?redirect=%2Fissues%3Fview%3Dall$/);
    assert.deepEqual(await seriousAxeViolations(page), [], "the password change page");
    await page.getByLabel("Current password").fill(ADMIN.password);
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Repeat the new password").fill(`${NEW_PASSWORD}x`);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("alert").filter({ hasText: "The two new passwords differ." }).waitFor();
    await page.getByLabel("New password", { exact: true }).fill("short");
    await page.getByLabel("Repeat the new password").fill("short");
    await page.getByRole("button", { name: "Change password" }).click();
    const policy = await page.getByRole("alert").textContent();
    assert.match(policy ?? "", /at least \d+ characters/, "the server's policy refusal is shown as it says it");

    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Repeat the new password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.waitForURL(/\/issues\?view=all$/);
    await page.getByRole("heading", { name: "Issues", level: 1 }).waitFor();
    await page.getByRole("link", { name: "All", exact: true }).and(page.locator("[aria-current=page]")).waitFor();
    assert.equal(await page.locator(".user-name").textContent(), "Administrator");
    assert.deepEqual(await seriousAxeViolations(page), [], "the issues page");

    // The session lives only in HttpOnly, SameSite=Strict cookies; script holds no token.
    const cookies = await page.context().cookies();
    for (const name of ["access-token", "refresh-token"]) {
      const cookie = cookies.find((c) => c.name === name);
      assert.ok(cookie, `${name} is set`);
      assert.deepEqual([cookie.httpOnly, cookie.sameSite], [true, "Strict"]);
    }
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
    assert.doesNotMatch(stored, /token|spa_|svc_/i);

    // The projects list reads real data (the workspace's default project), and a project leads to its issues.
    await page.getByRole("link", { name: "Projects", exact: true }).click();
    await page.getByRole("link", { name: "Default project" }).click();
    await page.waitForURL(/\/issues\?project=default$/);
    await page.getByText("No issue in “Waiting for my approval”.").waitFor();
    await page.getByRole("link", { name: "Projects", exact: true }).click();

    // A reload keeps the session; sign-out ends it, and private pages send back to sign-in.
    await page.reload();
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/auth\/sign-in$/);
    await page.goto(`${app.baseUrl}/projects`);
    await page.waitForURL(/\/auth\/sign-in\?redirect=%2Fprojects$/);
    const afterSignOut = await rest("GET", "/v1/users/me", { headers: { cookie: cookieHeader(cookies) } });
    assert.equal(afterSignOut.status, 401, "the signed-out session's cookie no longer works");
  }));

  it("asks a user with a second factor for a TOTP code, then accepts a recovery code", async () => {
    await makeUser(app.db, "mara");
    const token = await signIn(rest, "mara");
    const { secret, recoveryCodes } = await enrol(rest, token, "mara");
    await onPage(browser, "second-factor-sign-in", async (page) => {
    await page.goto(`${app.baseUrl}/`);
    await submitPassword(page, "mara", STRONG_PASSWORD);
    await page.getByRole("heading", { name: "Two-step verification" }).waitFor();
    assert.deepEqual(await seriousAxeViolations(page), [], "the second-factor step");
    await page.getByLabel("Verification code").fill(await wrongCode(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("alert").filter({ hasText: "invalid verification code" }).waitFor();
    // The enrolment's code was used; the next time step's is accepted (±1 step).
    await page.getByLabel("Verification code").fill(await totpCode(secret, 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/issues$/);
    await page.getByRole("link", { name: "Waiting for my approval" }).waitFor();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/auth\/sign-in$/);

    await submitPassword(page, "mara", STRONG_PASSWORD);
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(recoveryCodes[0]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/issues$/);
    assert.equal(await page.locator(".user-name").textContent(), "mara");
    });
  });

  it("shows the emergency pause and the announcement to every signed-in user, in the theme of their choice", async () => {
    const admin = await signIn(rest, ADMIN.loginId, NEW_PASSWORD);
    const set = (name: string, mask: string, value: unknown) =>
      rest("PATCH", `/v1/settings/${name}?updateMask=${mask}`, { token: admin, body: { value } });
    assert.equal((await set("EMERGENCY_PAUSE", "emergencyPause", { emergencyPause: { enabled: true, reason: "incident 42" } })).status, 200);
    const announcement = { level: "WARNING", text: "Maintenance tonight", link: "https://status.example.com" };
    assert.equal((await set("WORKSPACE_PROFILE", "workspaceProfile.announcement", { workspaceProfile: { announcement } })).status, 200);

    await makeUser(app.db, "nils");
    await onPage(browser, "banners", async (page) => {
    await page.goto(`${app.baseUrl}/projects`);
    await submitPassword(page, "nils", STRONG_PASSWORD);
    await page.waitForURL(/\/projects$/);
    await page.locator(".banner-critical").filter({ hasText: "Emergency pause: rollouts are stopped across the workspace. Reason: incident 42" }).waitFor();
    await page.locator(".banner-warning").filter({ hasText: "Maintenance tonight" }).waitFor();
    assert.deepEqual(await seriousAxeViolations(page), [], "the projects page with banners, dark");

    // The system's dark theme, until the user picks the light one, which outlives a reload.
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = await background();
    await page.getByLabel("Theme").selectOption({ label: "Light theme" });
    await page.reload();
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
    assert.notEqual(await background(), dark);
    assert.equal(await page.locator("html").getAttribute("data-theme"), "light");
    await page.getByLabel("Theme").selectOption({ label: "Dark theme" });
    assert.equal(await background(), dark);
    }, { colorScheme: "dark" });
    await set("EMERGENCY_PAUSE", "emergencyPause", { emergencyPause: { enabled: false } });
  });
});

function cookieHeader(cookies: { name: string; value: string }[]): string {
  return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

