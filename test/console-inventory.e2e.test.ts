// The web console's inventory and people pages in a real browser (issue 28
// item 5): an administrator adds a user on the users page with an initial
// password, grants them a role on a project's members page (the project's
// IAM policy, as the server then holds it), and reads a synced PostgreSQL
// database's schema; axe-core on each page.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { syncInstance } from "../shared/inventory/instance/instance-sync.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { launchChromium, onPage, saveScreenshot, seriousAxeViolations, submitPassword } from "./helpers/console-browser.ts";
import { createInstanceOk, createPgTarget, pgAdminSource, testSecrets, uniqueName } from "./helpers/instances.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, STRONG_PASSWORD } from "./helpers/users.ts";

describe("web console inventory and people", { timeout: 180_000 }, () => {
  let app: TestApp;
  let browser: Browser;
  let rest: ReturnType<typeof restClient>;
  let admin: string;
  let target: Awaited<ReturnType<typeof createPgTarget>>;
  const instanceId = uniqueName("inv").replaceAll("_", "-");

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    admin = await signInFirstAdmin(rest);
    target = await createPgTarget(["create table orders (id bigint primary key, note text not null default 'none', placed_at timestamptz)"]);
    await createInstanceOk(rest, admin, instanceId, { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    assert.equal(await syncInstance(app.db, testSecrets(), instanceId), "OK");
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await target?.drop();
  });

  it("adds a user, grants them a project role on the members page, and shows a database's schema", () =>
    onPage(browser, "inventory-schema", async (page) => {
      await page.goto(`${app.baseUrl}/admin/users`);
      await submitPassword(page, ADMIN.loginId, STRONG_PASSWORD);
      await page.waitForURL(/\/admin\/users$/);
      const nav = page.getByRole("navigation", { name: "Administration" });
      for (const section of ["Environments", "Users", "Groups", "Identity providers"]) await nav.getByRole("link", { name: section }).waitFor();

      const add = page.getByRole("form", { name: "Add a user" });
      await add.getByLabel("Login ID").fill("pia");
      await add.getByLabel("Name").fill("Pia Berg");
      await add.getByLabel("E-mail").fill("pia@example.com");
      await add.getByLabel("Initial password").fill(STRONG_PASSWORD);
      await add.getByRole("button", { name: "Add" }).click();
      await add.getByRole("status").filter({ hasText: "Added pia." }).waitFor();
      await page.getByRole("row").filter({ hasText: "pia@example.com" }).waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "the users page");
      await saveScreenshot(page, "inventory-users");

      await page.getByRole("link", { name: "Projects" }).click();
      await page.getByRole("navigation", { name: "Project default" }).getByRole("link", { name: "Members" }).click();
      await page.waitForURL(/\/projects\/default\/members$/);
      const grant = page.getByRole("form", { name: "Grant a role" });
      await grant.getByLabel("Login ID").fill("pia");
      await grant.getByLabel("Role").selectOption({ label: "Project Querier" });
      await grant.getByRole("button", { name: "Grant" }).click();
      await page.getByRole("button", { name: "Remove pia from Project Querier" }).waitFor();
      const policy = await rest<{ bindings: { role: string; members: string[] }[] }>("GET", "/v1/projects/default:getIamPolicy", { token: admin });
      const querier = policy.body.bindings.find((binding) => binding.role === "roles/projectQuerier");
      assert.deepEqual(querier?.members, ["user:login_id=pia"], "the grant is in the project's policy");
      assert.deepEqual(await seriousAxeViolations(page), [], "the project members page");
      await saveScreenshot(page, "inventory-project-members");

      await page.getByRole("navigation", { name: "Project default" }).getByRole("link", { name: "Databases" }).click();
      await page.getByRole("link", { name: target.name, exact: true }).click();
      await page.waitForURL(new RegExp(`/projects/default/databases/${instanceId}/${target.name}$`));
      const orders = page.getByRole("region", { name: "Table orders" });
      const rows = orders.getByRole("row");
      await rows.nth(3).waitFor();
      assert.deepEqual(await rows.allInnerTexts(), [
        "Column\tType\tNull\tDefault",
        "id primary key\tbigint\tnot null\t–",
        "note\ttext\tnot null\t'none'::text",
        "placed_at\ttimestamp with time zone\tnullable\t–",
      ]);
      assert.deepEqual(await seriousAxeViolations(page), [], "the database schema page");
    }));
});
