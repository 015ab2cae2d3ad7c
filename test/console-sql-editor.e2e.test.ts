// The web console's SQL Editor in a real browser (issue 28) against the real
// server and a PostgreSQL target database made for the test: the database
// picked through its project, statements typed into CodeMirror (styled under
// the console's strict CSP) and run with Ctrl+Enter one at a time or all
// selected, each result with its column types, NULLs, a masked column and
// its truncation, a per-statement error, a refusal, the virtualised grid
// scrolled to its last row, the plan with and without analyze, a CSV export
// downloaded and read back, and a statement loaded back from the history.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import type { Browser, Page } from "playwright-core";
import { launchChromium, onPage, saveScreenshot, seriousAxeViolations, submitPassword } from "./helpers/console-browser.ts";
import { patchCatalog, storeMaskingSchemes } from "./helpers/masking.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";
import { ADMIN, STRONG_PASSWORD } from "./helpers/users.ts";

const ROWS = 2500;
const SETUP = [
  "create table items (id bigint primary key, name text, secret text, at timestamptz)",
  `insert into items select g, 'item ' || g, 'hidden-' || g, timestamptz '2026-01-01 00:00:00+00' + g * interval '1 hour' from generate_series(1, ${ROWS}) g`,
  "update items set name = null where id = 2",
  "create table plain as select g as id, 'label ' || g as label from generate_series(1, 100) g",
];
const LISTING = "select id, name, secret, at from items order by id";

describe("web console SQL Editor", { timeout: 180_000 }, () => {
  let t: SqlTargets;
  let browser: Browser;

  before(async () => {
    t = await startSqlTargets(SETUP, () => []);
    await storeMaskingSchemes(t);
    assert.equal((await patchCatalog(t, t.pg.name, [["public", "items", "secret", "full"]])).status, 200);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("queries, explains and exports a PostgreSQL database, and loads a statement back from the history", () =>
    onPage(browser, "sql-editor", async (page) => {
      // What the CSP refuses, as the page's own event tells (the driver's script is not governed by it).
      await page.addInitScript(() => {
        const refused: string[] = ((globalThis as any).refusedByCsp = []);
        document.addEventListener("securitypolicyviolation", (event) => refused.push(event.violatedDirective));
      });
      const refusedByCsp = () => page.evaluate(() => (globalThis as any).refusedByCsp as string[]);

      await page.goto(`${t.app.baseUrl}/sql-editor`);
      await submitPassword(page, ADMIN.loginId, STRONG_PASSWORD);
      await page.waitForURL(/\/sql-editor$/);
      await page.getByRole("link", { name: "SQL Editor" }).and(page.locator("[aria-current=page]")).waitFor();
      await page.getByLabel("Project").selectOption({ label: "Default project" });
      const [, instance] = t.pg.name.split("/");
      await page.getByLabel("Database").selectOption({ label: `${t.pg.database} (${instance})` });

      // CodeMirror's own styles apply (its base theme makes the editor a flex box) and the CSP refused nothing.
      const editor = page.getByRole("textbox", { name: "SQL statements" });
      await editor.click();
      await page.keyboard.type(`${LISTING};\nselect count(*) as n from items;\nselect 1/0;`);
      assert.equal(await editor.evaluate((element) => getComputedStyle(element.closest(".cm-editor")!).display), "flex");
      assert.deepEqual(await refusedByCsp(), []);

      // Ctrl+Enter on the first line runs only the first statement: 1,000 rows of 2,500 (the default limit).
      await page.keyboard.press("ControlOrMeta+Home");
      await page.keyboard.press("Control+Enter");
      const first = page.getByRole("region", { name: "Result 1", exact: true });
      await first.getByText("1,000 rows").waitFor();
      assert.equal(await page.locator(".result").count(), 1);
      await first.getByText(/^truncated/).waitFor();
      const table = first.getByRole("table", { name: "Result 1" });
      assert.equal(await table.getAttribute("aria-rowcount"), "1001");
      assert.deepEqual(await table.getByRole("columnheader").allInnerTexts(), ["#", "id\nINT8", "name\nTEXT", "secret\nTEXT masked", "at\nTIMESTAMPTZ"]);
      const second = table.locator('[aria-rowindex="3"]');
      assert.equal(await second.locator(".cell-null").innerText(), "NULL", "NULL is shown as such");
      assert.doesNotMatch(await second.innerText(), /hidden-/, "the masked column's value is not shown");
      assert.match(await second.innerText(), /2026-01-01 \d\d:00:00[+-]\d\d:\d\d/, "an instant with its offset");
      await first.getByRole("list", { name: "Masked columns" }).getByText(/secret masked as full/).waitFor();

      // The grid draws only what is in view, and reaches the last row when scrolled to the end.
      assert.ok((await table.getByRole("row").count()) < 80, "a window of rows, not a thousand");
      await first.getByRole("region", { name: "Result 1, scrollable" }).evaluate((element) => element.scrollTo(0, element.scrollHeight));
      await table.locator('[aria-rowindex="1001"]').getByRole("cell", { name: "1000", exact: true }).waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "the SQL Editor with a result");
      await saveScreenshot(page, "sql-editor-result");

      // Everything selected: one result per statement, the failing one with its error.
      await editor.click();
      await page.keyboard.press("ControlOrMeta+a");
      await page.keyboard.press("Control+Enter");
      await page.getByRole("region", { name: "Result 3", exact: true }).getByRole("alert").filter({ hasText: "division by zero" }).waitFor();
      await page.getByRole("region", { name: "Result 2", exact: true }).getByText("1 row", { exact: true }).waitFor();

      // A write is refused with the server's message.
      await setText(page, "delete from items");
      await page.getByRole("button", { name: "Run" }).click();
      await page.getByRole("alert").filter({ hasText: "only read statements are allowed" }).waitFor();

      // The plan, then analyzed, of a table without masked columns (the server refuses plans that would show masked values).
      await setText(page, "select * from plain where id > 10");
      await page.getByRole("button", { name: "Explain" }).click();
      const plan = page.getByRole("region", { name: "Plan" });
      assert.match(await plan.locator("pre").innerText(), /Scan/);
      await page.getByLabel(/^Analyze/).check();
      await page.getByRole("button", { name: "Explain" }).click();
      await plan.getByText(/actual time/).waitFor();

      // A CSV export of every row, downloaded and read back; the masked column stays masked.
      await setText(page, LISTING);
      await page.getByLabel("Export format").selectOption("CSV");
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export" }).click()]);
      assert.match(download.suggestedFilename(), new RegExp(`^${t.pg.database}-\\d{8}T\\d{6}Z\\.csv$`));
      const csv = await readFile((await download.path())!, "utf8");
      const rows = parse(csv) as string[][];
      assert.deepEqual(rows[0], ["id", "name", "secret", "at"]);
      assert.equal(rows.length, ROWS + 1);
      assert.deepEqual(rows[1]!.slice(0, 2), ["1", "item 1"]);
      assert.doesNotMatch(csv, /hidden-/);
      await page.getByRole("status").filter({ hasText: /Exported .*\.csv .*1 masked column/ }).waitFor();

      // The history lists the calls that reached the target, newest first; one goes back into the editor.
      const history = page.getByRole("region", { name: "History" });
      await history.getByRole("listitem").first().getByText(/^EXPORT/).waitFor();
      await history.getByRole("button", { name: /select 1\/0/ }).click();
      assert.match(await editor.innerText(), /^select id, name, secret, at from items order by id;\nselect count\(\*\) as n from items;\nselect 1\/0;$/);
      // Typing over lines selected together makes Chromium's own editing write style attributes into
      // the editable lines (refused, and redrawn by CodeMirror at once); no style sheet or script was refused.
      assert.deepEqual((await refusedByCsp()).filter((directive) => directive !== "style-src-attr"), []);
    }));
});

/** Replaces the editor's text by typing, as a person would. */
async function setText(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "SQL statements" }).click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(text);
}
