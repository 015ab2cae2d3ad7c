// The web console's accessibility sweep (issue 28 item 8): every main page,
// signed in as an administrator with seeded data, at 1280×800 and at 390×800
// in the light and the dark theme (picked in the header against the
// system's, which the sign-in page follows) — no serious or critical axe-core
// violation, the page's h1 visible, its background of the theme's kind, no
// sideways overflow of the page itself
// on the narrow window (a wide table scrolls inside its own box), and a
// screenshot of each under test-artifacts/console/sweep/. On a few key pages
// the keyboard: the first Tab reaches the skip link, the next ones the main
// navigation, each with a visible focus mark; the skip link moves focus to
// the page. A new page is one line in PAGES; the administration sections
// are every one the area's navigation offers the administrator.
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { syncInstance } from "../shared/inventory/instance/instance-sync.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { ARTIFACTS, launchChromium, saveScreenshot, seriousAxeViolations, submitPassword } from "./helpers/console-browser.ts";
import { createInstanceOk, createPgTarget, pgAdminSource, testSecrets, uniqueName } from "./helpers/instances.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, STRONG_PASSWORD } from "./helpers/users.ts";

/** What the pages need: names made by the seeding. */
interface Seed {
  instance: string;
  database: string;
  issue: string;
}

/** A page of the sweep: a short name for its screenshot, and its path. */
interface SweptPage {
  name: string;
  path: (seed: Seed) => string;
  /** Also checked with the keyboard (once, at 1280×800 in the light theme). */
  keyboard?: boolean;
}

const PAGES: readonly SweptPage[] = [
  { name: "issues-open", path: () => "/issues?view=open", keyboard: true },
  { name: "issues-all", path: () => "/issues?view=all" },
  { name: "issues-project", path: () => "/issues?view=all&project=default" },
  { name: "issue", path: (seed) => `/projects/default/issues/${seed.issue}`, keyboard: true },
  { name: "new-change", path: () => "/projects/default/changes/new" },
  { name: "projects", path: () => "/projects" },
  { name: "project-members", path: () => "/projects/default/members" },
  { name: "project-databases", path: () => "/projects/default/databases" },
  { name: "database-schema", path: (seed) => `/projects/default/databases/${seed.instance}/${seed.database}` },
  { name: "database-revisions", path: (seed) => `/projects/default/databases/${seed.instance}/${seed.database}/revisions` },
  { name: "project-releases", path: () => "/projects/default/releases" },
  { name: "project-webhooks", path: () => "/projects/default/webhooks" },
  { name: "sql-editor", path: () => "/sql-editor", keyboard: true },
  { name: "account", path: () => "/account" },
  { name: "forgot-password", path: () => "/auth/forgot-password" },
];

const SIZES = [
  { label: "wide", width: 1280, height: 800 },
  { label: "narrow", width: 390, height: 800 },
] as const;
const THEMES = ["light", "dark"] as const;

describe("web console sweep: accessibility, themes and sizes", { timeout: 600_000 }, () => {
  let app: TestApp;
  let browser: Browser;
  let target: Awaited<ReturnType<typeof createPgTarget>>;
  const seed: Seed = { instance: uniqueName("sweep").replaceAll("_", "-"), database: "", issue: "" };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    const rest = restClient(app.baseUrl);
    const admin = await signInFirstAdmin(rest);
    target = await createPgTarget(["create table orders (id bigint primary key, note text not null default 'none', placed_at timestamptz)"]);
    seed.database = target.name;
    await createInstanceOk(rest, admin, seed.instance, { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    assert.equal(await syncInstance(app.db, testSecrets(), seed.instance), "OK");
    const statement = "alter table orders add column shipped_at timestamptz;";
    const plan = await rest<{ name: string }>("POST", "/v1/projects/default/plans", {
      token: admin,
      body: { title: "Ship dates", specs: [{ changeDatabaseConfig: { targets: [`instances/${seed.instance}/databases/${target.name}`], statement } }] },
    });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    const issue = await rest<{ name: string }>("POST", "/v1/projects/default/issues", { token: admin, body: { plan: plan.body.name, title: "Ship dates", description: "Orders learn when they left." } });
    assert.equal(issue.status, 200, JSON.stringify(issue.body));
    seed.issue = issue.body.name.split("/").at(-1)!;
    await mkdir(join(ARTIFACTS, "sweep"), { recursive: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await target?.drop();
  });

  for (const size of SIZES) {
    for (const theme of THEMES) {
      it(`every main page at ${size.width}×${size.height} in the ${theme} theme`, async () => {
        // The system says the other theme: the sign-in page follows it, the signed-in pages the user's pick in the header.
        const system = theme === "light" ? "dark" : "light";
        const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: system });
        const found: string[] = [];
        try {
          const page = await context.newPage();
          await open(page, `${app.baseUrl}/auth/sign-in`);
          found.push(...(await sweepPage(page, `sign-in-${size.label}-${system}`, size.width, system)));
          await submitPassword(page, ADMIN.loginId, STRONG_PASSWORD);
          await page.waitForURL((url) => !url.pathname.startsWith("/auth/"));
          await page.getByLabel("Theme").selectOption({ label: theme === "light" ? "Light theme" : "Dark theme" });
          for (const swept of [...PAGES, ...(await adminSections(page, app.baseUrl))]) {
            await open(page, `${app.baseUrl}${swept.path(seed)}`);
            found.push(...(await sweepPage(page, `${swept.name}-${size.label}-${theme}`, size.width, theme)));
          }
          if (size.label === "wide" && theme === "light") {
            for (const swept of PAGES.filter((p) => p.keyboard)) found.push(...(await keyboardProblems(context, `${app.baseUrl}${swept.path(seed)}`, swept.name)));
          }
        } finally {
          await context.close();
        }
        assert.deepEqual(found, []);
      });
    }
  }
});

/** Every section the administration area's navigation links to. */
async function adminSections(page: Page, baseUrl: string): Promise<SweptPage[]> {
  await open(page, `${baseUrl}/admin`);
  const links = page.getByRole("navigation", { name: "Administration" }).getByRole("link");
  await links.first().waitFor();
  const paths = await links.evaluateAll((anchors) => anchors.map((anchor) => new URL((anchor as HTMLAnchorElement).href).pathname));
  assert.ok(paths.length >= 10, `the administrator is offered the administration sections: ${paths.join(", ")}`);
  return paths.map((path) => ({ name: path.slice(1).replaceAll("/", "-"), path: () => path }));
}

/**
 * Goes to `url`, once more when the console's own document did not come (its
 * <html lang>): while web/dist is being rebuilt the server has no page to
 * serve for a moment.
 */
async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  if ((await page.evaluate(() => document.documentElement.lang)) === "") await page.waitForTimeout(2_000).then(() => page.goto(url));
}

/** The problems of the page as it is once its h1 shows: axe, overflow, the theme; its screenshot saved. */
async function sweepPage(page: Page, name: string, width: number, theme: "light" | "dark"): Promise<string[]> {
  const problems: string[] = [];
  const heading = page.getByRole("heading", { level: 1 }).first();
  await heading.waitFor({ state: "visible", timeout: 15_000 }).catch(() => problems.push(`${name}: no visible h1`));
  // What loads after the heading (lists, the issue's plan) is part of the page that is checked.
  await page.locator(".loading").first().waitFor({ state: "detached", timeout: 10_000 }).catch(() => problems.push(`${name}: still loading`));
  problems.push(...(await seriousAxeViolations(page)).map((violation) => `${name}: ${violation}`));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) problems.push(`${name}: the page is ${overflow}px wider than the ${width}px window (${await widestElements(page)})`);
  // The page's background is light or dark as the theme says (the tokens are light-dark() values).
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const brightness = (background.match(/\d+/g) ?? []).slice(0, 3).reduce((sum, channel) => sum + Number(channel), 0) / 3;
  if ((brightness > 128 ? "light" : "dark") !== theme) problems.push(`${name}: the background ${background} is not ${theme}`);
  await saveScreenshot(page, `sweep/${name}`);
  return problems;
}

/** The elements reaching past the window's right edge, outermost first, for the failure message. */
function widestElements(page: Page): Promise<string> {
  return page.evaluate(() => {
    const right = document.documentElement.clientWidth;
    const scrollsInside = (element: Element) => {
      for (let box = element.parentElement; box; box = box.parentElement) if (["auto", "scroll", "hidden"].includes(getComputedStyle(box).overflowX)) return true;
      return false;
    };
    const wide = [...document.querySelectorAll("body *")].filter((element) => element.getBoundingClientRect().right > right + 0.5 && !scrollsInside(element));
    const outermost = wide.filter((element) => !wide.includes(element.parentElement!));
    return outermost
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}${element.className && typeof element.className === "string" ? `.${element.className.split(" ").join(".")}` : ""}`)
      .join(", ");
  });
}

/**
 * The keyboard on a page freshly loaded: Tab reaches the skip link first, the
 * main navigation's first link within the next two (the workspace's name
 * comes between), each with a visible focus mark; Enter on the skip link
 * moves focus to the page's main region.
 */
async function keyboardProblems(context: BrowserContext, url: string, name: string): Promise<string[]> {
  const page = await context.newPage();
  const problems: string[] = [];
  try {
    await open(page, url);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await page.keyboard.press("Tab");
    const first = await focused(page);
    if (first.text !== "Skip to the page") problems.push(`${name}: the first Tab reaches "${first.text}", not the skip link`);
    if (!first.visibleMark) problems.push(`${name}: the skip link's focus is not visible`);
    let reachedNav = false;
    for (let i = 0; i < 2 && !reachedNav; i++) {
      await page.keyboard.press("Tab");
      const next = await focused(page);
      if (!next.visibleMark) problems.push(`${name}: "${next.text}" has no visible focus`);
      reachedNav = next.inMainNav;
    }
    if (!reachedNav) problems.push(`${name}: the main navigation is not reached after the skip link`);
    await page.getByRole("link", { name: "Skip to the page" }).focus();
    await page.keyboard.press("Enter");
    if ((await page.evaluate(() => document.activeElement?.id)) !== "main") problems.push(`${name}: the skip link does not move focus to the page`);
  } finally {
    await page.close();
  }
  return problems;
}

/** The focused element: its text, whether it sits in the main navigation, whether :focus-visible draws a mark. */
function focused(page: Page): Promise<{ text: string; inMainNav: boolean; visibleMark: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return { text: "", inMainNav: false, visibleMark: false };
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== "none";
    return {
      text: element.innerText.trim(),
      inMainNav: element.closest('nav[aria-label="Main"]') !== null,
      visibleMark: element.matches(":focus-visible") && (outline || shadow),
    };
  });
}
