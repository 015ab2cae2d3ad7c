// The web console's rule settings in a real browser (issue 28 item 5): an
// administrator adds an approval rule — a condition that does not compile is
// refused with the server's message, the corrected one saved with a step of
// Workspace DBA and still there after a reload; sets the level of an SQL
// review rule of the test environment; saves a maintenance window; saves an
// announcement, which the banner shows at once. axe-core on each page.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { launchChromium, onPage, saveScreenshot, seriousAxeViolations, submitPassword } from "./helpers/console-browser.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, STRONG_PASSWORD } from "./helpers/users.ts";

type Json = Record<string, any>;
const CONDITION = 'resource.environment_id == "test" && statement.sql_type == "DROP_TABLE"';

describe("web console rule settings", { timeout: 180_000 }, () => {
  let app: TestApp;
  let browser: Browser;
  let rest: ReturnType<typeof restClient>;
  let token: string;

  const stored = async (name: string) => (await rest<Json>("GET", `/v1/settings/${name}`, { token })).body.value;
  const saved = (page: Page, form: string) => page.getByRole("form", { name: form }).getByText("Saved.").waitFor();

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token = await signInFirstAdmin(rest);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it("saves an approval rule, an environment's review rule level, a maintenance window and the announcement", () =>
    onPage(browser, "admin-rules", async (page) => {
      await page.goto(`${app.baseUrl}/admin/approval-rules`);
      await submitPassword(page, ADMIN.loginId, STRONG_PASSWORD);
      await page.getByLabel("Rule 1 condition").waitFor();

      await page.getByRole("button", { name: "Add a rule" }).click();
      await page.getByLabel("Rule 2 title").fill("Drops in test");
      await page.getByLabel("Rule 2 condition").fill("resource.environment_id ==");
      await page.getByRole("button", { name: "Add a step to rule 2" }).click();
      await page.getByRole("group", { name: "Step 1 of rule 2: who may approve" }).getByLabel("Workspace DBA").check();
      await page.getByRole("button", { name: "Save approval rules" }).click();
      const refusal = page.getByRole("form", { name: "Approval rules" }).getByRole("alert");
      await refusal.filter({ hasText: "workspaceApproval.rules[1].condition.expression does not compile" }).waitFor();

      await page.getByLabel("Rule 2 condition").fill(CONDITION);
      await page.getByRole("button", { name: "Move rule 2 up" }).click();
      await page.getByRole("button", { name: "Save approval rules" }).click();
      await saved(page, "Approval rules");
      const approval = (await stored("WORKSPACE_APPROVAL")).workspaceApproval;
      assert.deepEqual(
        approval.rules.map((rule: Json) => [rule.condition.expression, rule.template.steps.map((step: Json) => step.roles)]),
        [
          [CONDITION, [["roles/workspaceDBA"]]],
          ['resource.environment_id == "prod"', [["roles/projectOwner"]]],
        ],
        "the new rule first, the default one kept",
      );
      await page.reload();
      await page.getByLabel("Rule 1 condition").waitFor();
      assert.equal(await page.getByLabel("Rule 1 condition").inputValue(), CONDITION);
      assert.equal(await page.getByLabel("Rule 1 title").inputValue(), "Drops in test");
      assert.deepEqual(await seriousAxeViolations(page), [], "the approval rules page");
      await saveScreenshot(page, "admin-approval-rules");

      await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Environments" }).click();
      await page.getByLabel("New rule for test").fill("table.require-pk");
      await page.getByRole("button", { name: "Add the rule to test" }).click();
      await page.getByRole("group", { name: "table.require-pk in test" }).getByLabel("Error").check();
      await page.getByRole("button", { name: "Save environments" }).click();
      await saved(page, "Environments");
      const environments = (await stored("ENVIRONMENT")).environment.environments as Json[];
      assert.deepEqual(
        environments.map((environment) => [environment.id, environment.sqlReview?.rules?.map((rule: Json) => `${rule.type}:${rule.level}`) ?? []]),
        [
          ["test", ["table.require-pk:ERROR"]],
          ["prod", []],
        ],
      );
      assert.deepEqual(await seriousAxeViolations(page), [], "the environments page");
      await saveScreenshot(page, "admin-environments");

      await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Maintenance window" }).click();
      await page.getByRole("button", { name: "Add a window" }).click();
      await page.getByRole("group", { name: "Days of window 1" }).getByLabel("Sunday").check();
      await page.getByLabel("Start task runs only inside a window").check();
      await page.getByLabel("Time zone").fill("Europe/Paris");
      await page.getByRole("button", { name: "Save maintenance window" }).click();
      await saved(page, "Maintenance window");
      const window = (await stored("MAINTENANCE_WINDOW")).maintenanceWindow;
      assert.deepEqual(window, { enabled: true, timezone: "Europe/Paris", windows: [{ weekdays: ["SATURDAY", "SUNDAY"], start: "02:00", duration: "7200s" }] }, "the new window starts Saturday 02:00 for 2h");
      assert.deepEqual(await seriousAxeViolations(page), [], "the maintenance window page");

      await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Workspace profile" }).click();
      await page.getByLabel("Announcement text").fill("Upgrade on Sunday night");
      await page.getByLabel("Announcement level").selectOption({ label: "Warning" });
      await page.getByRole("button", { name: "Save announcement" }).click();
      await page.getByRole("region", { name: "Announcement" }).getByText("Saved.").waitFor();
      await page.locator(".banner-warning").filter({ hasText: "Upgrade on Sunday night" }).waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "the workspace profile page with the announcement");
    }));
});
