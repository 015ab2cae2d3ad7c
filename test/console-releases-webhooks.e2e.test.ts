// The web console's releases, project webhooks and SQL Editor Execute in a
// real browser (issue 28) against the real server (--webhook-allow-private,
// so that a loopback receiver may take a project's webhook) and a PostgreSQL
// target: a release made through the API read with its statements and
// checksums, and a revision of it on the database with its statement; a
// GENERIC webhook created with its secret shown only as set, then tested —
// the receiver gets the signed test and the page shows its answer; Execute
// not offered in PIPELINE mode, then, in EDITOR mode, a write confirmed and
// its rows affected shown and found in the target. axe-core on each page.
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium, onPage, saveScreenshot, seriousAxeViolations, submitPassword } from "./helpers/console-browser.ts";
import { startSqlTargets, type SqlTargets } from "./helpers/sql-targets.ts";
import { ADMIN, STRONG_PASSWORD } from "./helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";

type Json = Record<string, any>;

const MIGRATION = "create table counters (id int primary key, n int not null default 0);";
const SECRET = "project-hook-secret-7f3a";

describe("web console releases, project webhooks and Execute", { timeout: 180_000 }, () => {
  let t: SqlTargets;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let project: string;

  const call = async (method: string, path: string, body?: Json) => {
    const reply = await t.rest<Json>(method, path, { token: t.admin, body });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };
  const signInAt = async (page: Page, path: string) => {
    await page.goto(`${t.app.baseUrl}${path}`);
    await submitPassword(page, ADMIN.loginId, STRONG_PASSWORD);
    await page.waitForURL((url) => url.pathname === path);
  };

  before(async () => {
    t = await startSqlTargets(["create table items (id int primary key)"], () => [], ["--webhook-allow-private"]);
    project = (await call("GET", `/v1/${t.pg.name}`)).project.split("/")[1];
    receiver = await startWebhookReceiver();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  it("shows a release's files with statement and sha256, and a database's revision with its statement", async () => {
    const release = await call("POST", `/v1/projects/${project}/releases`, {
      title: "Counters",
      files: [
        { path: "migrations/1.10.sql", version: "1.10", changeType: "MIGRATE", statement: "alter table counters add column note text;" },
        { path: "migrations/1.9.sql", version: "1.9", changeType: "MIGRATE", statement: MIGRATION },
      ],
    });
    const id = release.name.split("/").at(-1);
    const revision = await call("POST", `/v1/${t.pg.name}/revisions`, { release: release.name, file: "migrations/1.9.sql" });
    const [, instance, , database] = t.pg.name.split("/");
    await onPage(browser, "revision", async (page) => {
      await signInAt(page, `/projects/${project}/releases`);
      await page.getByRole("link", { name: id, exact: true }).click();
      await page.getByRole("heading", { name: /Release .* Counters/ }).waitFor();
      // Version order: 1.9 before 1.10.
      assert.deepEqual(await page.locator("section[aria-label^='Version'] h2").allInnerTexts(), ["1.9 migrations/1.9.sql MIGRATE", "1.10 migrations/1.10.sql MIGRATE"]);
      const first = page.getByRole("region", { name: "Version 1.9" });
      await first.getByText(createHash("sha256").update(MIGRATION).digest("hex")).waitFor();
      assert.equal(await first.getByLabel("Statement of version 1.9").innerText(), MIGRATION);
      assert.deepEqual(await seriousAxeViolations(page), [], "a release");
      await saveScreenshot(page, "release");

      // From the schema page to the database's revisions, then the revision with its release file's statement.
      await page.goto(`${t.app.baseUrl}/projects/${project}/databases/${instance}/${database}`);
      await page.getByRole("link", { name: `Revisions of ${database}` }).click();
      await page.getByRole("link", { name: "1.9", exact: true }).click();
      await page.waitForURL(new RegExp(`/revisions/${revision.name.split("/").at(-1)}$`));
      assert.equal(await page.getByLabel("Statement of version 1.9").innerText(), MIGRATION);
      await page.getByText(revision.sha256).waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], "a revision");
    });
  });

  it("creates a project webhook with its secret shown only as set, and tests it with the receiver's answer", () =>
    onPage(browser, "project-webhooks", async (page) => {
      await signInAt(page, `/projects/${project}/databases`);
      await page.getByRole("navigation", { name: `Project ${project}` }).getByRole("link", { name: "Webhooks" }).click();
      await page.getByRole("button", { name: "Add a webhook" }).click();
      const form = page.getByRole("form", { name: "New webhook" });
      await form.getByLabel("Title").fill("Build bot");
      await form.getByLabel("Type").selectOption({ label: "Generic (signed JSON)" });
      await form.getByLabel("URL").fill(`${receiver.origin}/project-hook?token=abc`);
      await form.getByLabel("Secret").fill(SECRET);
      await form.getByLabel("rollout.done").check();
      await form.getByRole("button", { name: "Create webhook" }).click();
      await page.getByRole("status").filter({ hasText: "Created Build bot." }).waitFor();

      // The list shows where it points without the query, the secret only as set, the one event.
      const row = page.getByRole("row", { name: /Build bot/ });
      assert.match((await row.innerText()).replace(/\s+/g, " "), new RegExp(`Build bot Generic \\(signed JSON\\) ${receiver.origin}/project-hook set rollout\\.done`));
      assert.doesNotMatch(await page.content(), new RegExp(`${SECRET}|token=abc`), "neither the secret nor the URL's query is on the page");

      receiver.plan({ status: 202, body: "accepted by the project receiver" });
      await row.getByRole("button", { name: "Test Build bot" }).click();
      const answer = page.getByRole("status", { name: "What Build bot answered" });
      await answer.getByText("accepted by the project receiver").waitFor();
      assert.match((await answer.locator("tbody tr").innerText()).replace(/\s+/g, " "), /202 accepted by the project receiver delivered/);
      const test = receiver.received.at(-1)!;
      assert.equal(test.path, "/project-hook?token=abc");
      assert.equal(test.headers["x-svc-signature"], `sha256=${createHmac("sha256", SECRET).update(test.body).digest("hex")}`, "signed with the secret typed in");
      assert.deepEqual(await seriousAxeViolations(page), [], "the webhooks page with a test's answer");

      // Edit: the title only; the stored URL and secret are kept.
      await row.getByRole("button", { name: "Edit Build bot" }).click();
      const edit = page.getByRole("form", { name: "Edit webhook Build bot" });
      assert.equal(await edit.getByLabel("URL").inputValue(), "", "the URL is never read back");
      await edit.getByLabel("Title").fill("Deploy bot");
      await edit.getByRole("button", { name: "Save webhook" }).click();
      await page.getByRole("status").filter({ hasText: "Saved Deploy bot." }).waitFor();
      const [stored] = (await call("GET", `/v1/projects/${project}/webhooks`)).webhooks;
      assert.deepEqual([stored.title, stored.secretSet, stored.events], ["Deploy bot", true, ["rollout.done"]]);
      await saveScreenshot(page, "project-webhook-saved");

      await page.getByRole("button", { name: "Delete Deploy bot" }).click();
      await page.getByRole("button", { name: "Delete Deploy bot" }).click();
      await page.getByRole("status").filter({ hasText: "Deleted Deploy bot." }).waitFor();
      assert.deepEqual((await call("GET", `/v1/projects/${project}/webhooks`)).webhooks ?? [], []);
    }));

  it("offers Run as change only in EDITOR mode, asks first, and shows each statement's rows affected", () =>
    onPage(browser, "sql-editor-execute", async (page) => {
      const pickDatabase = async () => {
        await page.getByLabel("Project").selectOption({ value: `projects/${project}` });
        await page.getByLabel("Database").selectOption({ value: t.pg.name });
      };
      await signInAt(page, "/sql-editor");
      await pickDatabase();
      await page.getByText(/Run as change is not offered.*PIPELINE/).waitFor();
      assert.equal(await page.getByRole("button", { name: /Run as change/ }).count(), 0);

      await mergeWorkspaceProfile(t.app, { databaseChangeMode: "EDITOR" });
      await page.reload();
      await pickDatabase();
      const editor = page.getByRole("textbox", { name: "SQL statements" });
      await editor.click();
      await page.keyboard.type("insert into items values (1), (2), (3);\ndelete from items where id > 1;");
      // The editor holds the whole text before it is selected (on a busy machine its last keys may still be on their way).
      await editor.filter({ hasText: "delete from items where id > 1;" }).waitFor();
      await page.keyboard.press("ControlOrMeta+a");
      await page.getByRole("button", { name: "Run as change…" }).click();
      const confirm = page.getByRole("group", { name: /Write to .* now, outside any issue/ });
      assert.match(await confirm.innerText(), /insert into items values/);
      assert.deepEqual(await t.pg.query("select id from items"), [], "nothing is written before the confirmation");
      await confirm.getByRole("button", { name: "Run as change" }).click();

      const executed = page.getByRole("region", { name: "Executed statements" });
      await executed.getByRole("row", { name: /insert into items/ }).getByRole("cell", { name: "3", exact: true }).waitFor();
      await executed.getByRole("row", { name: /delete from items/ }).getByRole("cell", { name: "2", exact: true }).waitFor();
      assert.match(await executed.locator("tbody tr").first().innerText(), /\d+ ms/);
      assert.deepEqual(await t.pg.query("select id from items"), [{ id: 1 }]);
      assert.deepEqual(await seriousAxeViolations(page), [], "the SQL Editor after Execute");
    }));
});

