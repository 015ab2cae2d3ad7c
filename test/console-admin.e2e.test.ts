// The web console's administration pages in a real browser (issue 28 items
// 5 and 6): the emergency pause switched with its reason by an administrator
// and shown to another signed-in user in a second browser context, who is
// offered no switch; the audit search finding what was done earlier in the
// test, by its filter builder, and its CSV export; the workspace's members
// granted and revoked a role, and a write over someone else's change refused
// with the current version offered; an instance's connection tested.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { launchChromium, onPage, seriousAxeViolations, submitPassword } from "./helpers/console-browser.ts";
import { pgAdminSource } from "./helpers/instances.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

const REASON = "Incident 7: replica lag";

describe("web console administration", { timeout: 180_000 }, () => {
  let app: TestApp;
  let browser: Browser;
  let rest: ReturnType<typeof restClient>;
  let admin: string;

  const signInAt = async (page: Page, path: string, loginId: string) => {
    await page.goto(`${app.baseUrl}${path}`);
    await submitPassword(page, loginId, STRONG_PASSWORD);
    await page.waitForURL((url) => url.pathname.startsWith(path));
  };
  const pauseBanner = (page: Page) => page.locator(".banner-critical").filter({ hasText: `Reason: ${REASON}` });

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    admin = await signInFirstAdmin(rest);
    await makeUser(app.db, "nils");
    const members = { role: "roles/workspaceMember", members: ["user:login_id=nils"] };
    const policy = { bindings: [{ role: "roles/workspaceAdmin", members: ["user:login_id=admin"] }, members] };
    assert.equal((await rest("POST", "/v1/workspaces/-:setIamPolicy", { token: admin, body: { policy } })).status, 200);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it("lets an administrator pause rollouts with a reason that another user sees, then lift the pause", () =>
    onPage(browser, "admin-emergency-pause", async (page) => {
      await signInAt(page, "/admin", ADMIN.loginId);
      await page.waitForURL(/\/admin\/emergency-pause$/);
      await page.getByText("Rollouts run normally.").waitFor();
      await page.getByRole("button", { name: "Pause all rollouts" }).click();
      assert.equal(await page.getByLabel("Reason").evaluate((input: HTMLTextAreaElement) => input.validity.valueMissing), true);
      await page.getByLabel("Reason").fill(REASON);
      await page.getByRole("button", { name: "Pause all rollouts" }).click();
      await page.getByText(`Rollouts are paused. Reason: ${REASON}`).waitFor();
      await pauseBanner(page).waitFor();
      await page.getByText(/Last changed by admin at/).waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "the emergency pause page, paused");

      await onPage(browser, "admin-emergency-pause-member", async (other) => {
        await signInAt(other, "/projects", "nils");
        await pauseBanner(other).waitFor();
        // A member reads the pause but is offered no switch.
        await other.getByRole("link", { name: "Administration" }).click();
        await other.getByText(`Rollouts are paused. Reason: ${REASON}`).waitFor();
        assert.equal(await other.getByRole("button", { name: "Lift the pause" }).count(), 0);
        // Only the sections a workspace member may open (§6.2: settings.get, instances, users and groups read).
        const sections = await other.getByRole("navigation", { name: "Administration" }).getByRole("link").allTextContents();
        for (const open of ["Emergency pause", "Instances", "Users", "Groups"]) assert.ok(sections.includes(open), `${open} in ${sections}`);
        for (const closed of ["Audit log", "Members and roles", "Identity providers"]) assert.ok(!sections.includes(closed), `${closed} in ${sections}`);

        await page.getByRole("button", { name: "Lift the pause" }).click();
        await page.getByText("Rollouts run normally.").waitFor();
        await pauseBanner(page).waitFor({ state: "detached" });
        await other.reload();
        await other.getByText("Rollouts run normally.").waitFor();
        assert.equal(await pauseBanner(other).count(), 0);
      });
    }));

  it("finds in the audit log what was done earlier, by actor, action, resource and outcome, and exports it", async () => {
    // A refused change by the member, to be found by its outcome.
    const nils = await signIn(rest, "nils");
    const refused = await rest("PATCH", "/v1/settings/EMERGENCY_PAUSE?updateMask=emergencyPause", {
      token: nils,
      body: { value: { emergencyPause: { enabled: true, reason: "not mine to pause" } } },
    });
    assert.equal(refused.status, 403);
    await onPage(browser, "admin-audit-log", async (page) => {
      await signInAt(page, "/admin/audit-log", ADMIN.loginId);
      const search = page.getByRole("form", { name: "Audit search" });
      await search.getByLabel("Actor").fill("admin");
      await search.getByLabel("Action").fill("bb.settings.set");
      await search.getByLabel("Resource").fill("settings/EMERGENCY");
      await search.getByRole("button", { name: "Search" }).click();
      await page.getByText('Filter: actor:"admin" AND action:"bb.settings.set" AND resource:"settings/EMERGENCY"').waitFor();
      const rows = page.locator("tbody tr");
      await rows.first().waitFor();
      assert.equal(await rows.count(), 2, "the pause and its lifting, by the console");
      for (const row of await rows.all()) assert.match((await row.textContent()) ?? "", /users\/admin.*bb\.settings\.set.*settings\/EMERGENCY_PAUSE.*ok/);
      assert.deepEqual(await seriousAxeViolations(page), [], "the audit log page");

      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Export CSV" }).click();
      const file = await download;
      assert.match(file.suggestedFilename(), /\.csv$/);
      const csv = await readFile((await file.path())!, "utf8");
      const lines = csv.trim().split(/\r?\n/);
      assert.equal(lines.length, 3, csv);
      assert.match(lines[0]!, /^name,createTime,actor,/);
      await page.getByText(/^Saved .*\.csv \([\d,]+ bytes\)\.$/).waitFor();

      await search.getByRole("button", { name: "Clear" }).click();
      await search.getByLabel("Outcome").selectOption({ label: "Permission denied" });
      await search.getByRole("button", { name: "Search" }).click();
      await page.getByText("Filter: status=permission_denied").waitFor();
      await rows.first().waitFor();
      const denied = (await rows.first().textContent()) ?? "";
      assert.match(denied, /users\/nils.*bb\.settings\.set.*permission_denied/);

      // A time range after everything: nothing.
      await search.getByLabel("From").fill("2999-01-01T00:00");
      await search.getByRole("button", { name: "Search" }).click();
      await page.getByText("No record matches.").waitFor();
    });
  });

  it("grants and revokes workspace roles, and refuses a write over someone else's change with a reload", () =>
    onPage(browser, "admin-members", async (page) => {
      await makeUser(app.db, "olga");
      await signInAt(page, "/admin/members", ADMIN.loginId);
      const grant = page.getByRole("form", { name: "Grant a role" });
      await grant.getByLabel("Login ID").fill("olga");
      await grant.getByLabel("Role").selectOption({ label: "Workspace DBA" });
      await grant.getByRole("button", { name: "Grant" }).click();
      const remove = page.getByRole("button", { name: "Remove olga from Workspace DBA" });
      await remove.waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "the members page");

      // Someone else writes the policy meanwhile: the page's etag is stale.
      const current = await rest<{ bindings: unknown[] }>("GET", "/v1/workspaces/-:getIamPolicy", { token: admin });
      const other = [...current.body.bindings, { role: "roles/readOnlyAuditor", members: ["user:login_id=nils"] }];
      assert.equal((await rest("POST", "/v1/workspaces/-:setIamPolicy", { token: admin, body: { policy: { bindings: other } } })).status, 200);
      await remove.click();
      await page.getByRole("alert").filter({ hasText: "Someone else changed this since you opened it" }).waitFor();
      await page.getByRole("button", { name: "Reload the current version" }).click();
      await page.getByRole("button", { name: "Remove nils from Read-only Auditor" }).waitFor();
      await page.getByRole("button", { name: "Remove olga from Workspace DBA" }).click();
      await remove.waitFor({ state: "detached" });
      const stored = await rest<{ bindings: { role: string; members: string[] }[] }>("GET", "/v1/workspaces/-:getIamPolicy", { token: admin });
      assert.deepEqual(stored.body.bindings.map((b) => b.role).sort(), ["roles/readOnlyAuditor", "roles/workspaceAdmin", "roles/workspaceMember"]);
    }));

  it("lists the instances and tests one's connection with its stored credentials", async () => {
    const instance = { title: "Main PostgreSQL", engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] };
    assert.equal((await rest("POST", "/v1/instances?instanceId=main-pg", { token: admin, body: instance })).status, 200);
    await onPage(browser, "admin-instances", async (page) => {
      await signInAt(page, "/admin/instances", ADMIN.loginId);
      const row = page.getByRole("row").filter({ hasText: "instances/main-pg" });
      await row.getByText("POSTGRES", { exact: true }).waitFor();
      await row.getByRole("button", { name: "Test connection to Main PostgreSQL" }).click();
      await row.getByRole("status").filter({ hasText: /^Connected \(\d+/ }).waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "the instances page");
    });
  });
});
