// The web console's change pages in a real browser (issue 28): a change from
// plan to rollout DONE against the real server, worker, PostgreSQL and a
// real target database. The creator writes the plan in the SQL field (a
// check's error marked at its line and column, under the strict CSP) and
// creates the issue; the issue page shows the approval given by a second
// user in a second browser context, then the rollout's task states change
// on it as the worker records them — without a reload.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium, onPage, saveScreenshot, seriousAxeViolations, submitPassword } from "./helpers/console-browser.ts";
import { eventually } from "./helpers/instances.ts";
import { HOLD_TABLE, RolloutHarness, WAIT_WHILE_HELD, type PgTarget } from "./helpers/rollout-harness.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

const PROJECT = "console-chg";
const APPROVER = "olga";
let baseUrl = "";

describe("web console changes", { timeout: 180_000 }, () => {
  const harness = new RolloutHarness(PROJECT);
  let target: PgTarget;
  let browser: Browser;

  before(async () => {
    [target] = (await harness.start(1, [HOLD_TABLE])) as [PgTarget];
    // A prod database: the default approval rule asks a project owner, and prod's stage waits to be started.
    await harness.ok("PATCH", `/v1/${target.resource}?updateMask=environment`, { environment: "environments/prod" });
    await harness.ok("PATCH", `/v1/projects/${PROJECT}?updateMask=allowSelfApproval`, { allowSelfApproval: false });
    await makeUser(harness.app.db, APPROVER);
    const policy = await harness.ok("GET", `/v1/projects/${PROJECT}:getIamPolicy`);
    const bindings = [...(policy.bindings ?? []), { role: "roles/projectOwner", members: [`user:login_id=${APPROVER}`] }];
    await harness.ok("POST", `/v1/projects/${PROJECT}:setIamPolicy`, { policy: { bindings, etag: policy.etag } });
    baseUrl = harness.app.baseUrl;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await harness.stop();
  });

  it("takes an issue from approval by a second user to a rollout DONE, live on the creator's page", async () => {
    const creator = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await creator.newPage();
      const cspViolations: string[] = [];
      page.on("console", (message) => /Content Security Policy/i.test(message.text()) && cspViolations.push(message.text()));
      await signInAt(page, ADMIN.loginId, `/issues?view=all&project=${PROJECT}`);

      // The new change: a first statement the prod review refuses, marked in the SQL field where the check points.
      await page.getByRole("link", { name: "New change" }).click();
      await page.getByRole("heading", { name: /New change/, level: 1 }).waitFor();
      await page.getByLabel("Title").fill("Add the orders table");
      await page.getByLabel("Description").fill("Orders get their own table.");
      await page.getByRole("checkbox", { name: new RegExp(target.name) }).check();
      const sql = page.getByRole("textbox", { name: "SQL statement" });
      // Typed as keys are: fill() would edit the DOM through the browser's editing engine, which writes style attributes the CSP refuses.
      const typeSql = async (text: string) => (await sql.click(), await page.keyboard.press("ControlOrMeta+a"), await page.keyboard.insertText(text));
      await typeSql(`${WAIT_WHILE_HELD};\ncreate table orders (id int);`);
      await page.getByRole("button", { name: "Check" }).click();
      const review = page.getByRole("region", { name: /^Checks on / }).getByRole("listitem").filter({ hasText: "table.require-pk" });
      await review.filter({ hasText: /ERROR.*at line 2/ }).waitFor({ timeout: 30_000 });
      const mark = page.locator(".cm-check-error");
      assert.equal(await mark.count(), 1, "the refused statement is marked in the field");
      assert.match((await mark.getAttribute("title")) ?? "", /primary key/i);
      assert.equal(await page.locator(".cm-gutters").evaluate((gutters) => getComputedStyle(gutters).display), "flex", "CodeMirror's own styles apply under the CSP");
      assert.deepEqual(await seriousAxeViolations(page), [], "the new change page with its check results");
      await saveScreenshot(page, "changes-new-change-checked");

      // An edit inside a line, as a user would fix it (see decision 0112 on edits across lines).
      await sql.click();
      await page.keyboard.press("ControlOrMeta+End");
      for (let i = 0; i < 2; i++) await page.keyboard.press("ArrowLeft");
      await page.keyboard.insertText(" primary key");
      assert.match((await sql.textContent()) ?? "", /create table orders \(id int primary key\);$/);
      await page.getByText("The statement changed since this check.").waitFor();
      assert.equal(await mark.count(), 0, "an edited statement drops the old marks");
      await page.getByRole("button", { name: "Check" }).click();
      await page.getByRole("region", { name: /^Checks on / }).getByText(/Dry run passed/).waitFor({ timeout: 30_000 });
      await page.getByRole("button", { name: "Create the issue" }).click();
      await page.waitForURL(/\/projects\/console-chg\/issues\/\d+$/);
      const issueName = new URL(page.url()).pathname.slice(1);
      await page.getByRole("heading", { name: /Add the orders table/, level: 1 }).waitFor();
      await page.getByText("Orders get their own table.").waitFor();
      await page.getByRole("region", { name: `Changes on ${target.resource}` }).getByText("create table orders").waitFor();
      await page.getByRole("list", { name: "Check results" }).first().waitFor();
      await page.getByTestId("approval-status").filter({ hasText: "PENDING" }).waitFor({ timeout: 30_000 });
      await page.getByText("Approved by a holder of: projectOwner").waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "the issue page waiting for approval");
      // Marks the document: it must still be the same one at the end (no reload).
      await page.evaluate(() => ((globalThis as any).sameDocument = true));

      // The creator may not approve here: the server's refusal is shown as it says it.
      await page.getByRole("button", { name: "Approve" }).click();
      await page.getByRole("alert").filter({ hasText: /creator|self/i }).waitFor();

      await onPage(browser, "changes-approver", async (approverPage) => {
        await signInAt(approverPage, APPROVER, "/issues");
        await approverPage.getByRole("link", { name: "Add the orders table" }).click();
        await approverPage.getByLabel("Approval comment (optional)").fill("Looks right.");
        await approverPage.getByRole("button", { name: "Approve" }).click();
        await approverPage.getByTestId("approval-status").filter({ hasText: "APPROVED" }).waitFor();
      });

      // The creator's page learns of the approval and the new rollout from the issue's watch.
      await page.getByTestId("approval-status").filter({ hasText: "APPROVED" }).waitFor();
      await page.getByText(`Approved by ${APPROVER}`).waitFor();
      await page.getByText("Looks right.", { exact: true }).waitFor();
      const stage = page.getByRole("region", { name: "Stage prod" });
      await stage.getByTestId("task-state").filter({ hasText: "NOT_STARTED" }).waitFor();
      await target.query("update hold set held = true");
      await stage.getByRole("button", { name: "Start prod" }).click();
      await stage.getByTestId("task-state").filter({ hasText: "RUNNING" }).waitFor({ timeout: 20_000 });
      await page.getByTestId("rollout-state").filter({ hasText: "RUNNING" }).waitFor();
      await target.query("update hold set held = false");
      await stage.getByTestId("task-state").filter({ hasText: "DONE" }).waitFor({ timeout: 20_000 });
      await page.getByTestId("rollout-state").filter({ hasText: "DONE" }).waitFor();
      await page.getByTestId("issue-status").filter({ hasText: "DONE" }).waitFor();
      assert.equal(await page.evaluate(() => (globalThis as any).sameDocument), true, "the page was never reloaded");

      // The task's run log: each statement the run executed.
      await stage.getByRole("button", { name: /^Log/ }).click();
      await page.getByRole("cell", { name: "create table orders (id int primary key)", exact: true }).waitFor();
      await page.getByText(/Run #\d+ DONE by admin/).waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "the issue page with its rollout DONE");
      const events = await page.getByRole("region", { name: "Activity" }).textContent();
      assert.match(events ?? "", /olga/);
      await target.query("select 1 from orders");
      assert.deepEqual(cspViolations, [], "nothing the page does is refused by its CSP");
      assert.equal((await harness.ok("GET", `/v1/${issueName}`)).status, "DONE");
      await saveScreenshot(page, "changes-rollout-done");
    } finally {
      for (const page of creator.pages()) await saveScreenshot(page, "changes-creator").catch(() => undefined);
      await creator.close();
    }
  });
});

async function signInAt(page: Page, loginId: string, path: string): Promise<void> {
  await page.goto(new URL(path, baseUrl).href);
  await submitPassword(page, loginId, STRONG_PASSWORD);
  await page.waitForURL((url) => !url.pathname.startsWith("/auth/"));
}
