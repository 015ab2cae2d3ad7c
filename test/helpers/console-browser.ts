// Headless Chromium for the web console's end-to-end tests: Debian's
// /usr/bin/chromium driven by playwright-core, with the flags this machine
// needs (no sandbox as root, no background connections to the closed
// network) and a fresh profile per launch. Each test leaves a screenshot of
// its last page in test-artifacts/console/ (gitignored).
import { access, constants, mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";

export const CHROMIUM = process.env.SVC_CHROMIUM ?? "/usr/bin/chromium";
export const ARTIFACTS = join(import.meta.dirname, "..", "..", "test-artifacts", "console");

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A browser with a fresh profile (playwright makes a new user-data-dir for each launch). */
export async function launchChromium(): Promise<Browser> {
  await access(CHROMIUM, constants.X_OK).catch(() => {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's (apt-get install chromium), or name another in SVC_CHROMIUM`);
  });
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 30_000 });
}

/** The page as it looks now, saved as test-artifacts/console/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Fills the sign-in form and submits it. */
export async function submitPassword(page: Page, loginId: string, password: string): Promise<void> {
  await page.getByLabel("Login ID").fill(loginId);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * Runs `steps` on a page of a fresh context (its own cookies and storage), at
 * 1280×800 unless `options` say otherwise, and saves the final page as
 * <name>.png whether they pass or fail.
 * With SVC_TEST_LOGS=1 the page's console and responses are printed.
 */
export async function onPage(browser: Browser, name: string, steps: (page: Page) => Promise<void>, options: BrowserContextOptions = {}): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  if (process.env.SVC_TEST_LOGS === "1") {
    page.on("console", (message) => console.log(`[${name}] console:`, message.text()));
    page.on("response", (response) => console.log(`[${name}]`, response.status(), response.request().method(), response.url()));
  }
  try {
    await steps(page);
  } finally {
    await saveScreenshot(page, name).catch(() => undefined);
    await context.close();
  }
}

const axeSource = readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * The accessibility violations of serious or critical impact on the page as
 * it is now, by axe-core; one line each, naming the rule and the elements.
 * axe is evaluated by the driver, which the page's CSP does not govern.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(await axeSource);
  const violations = await page.evaluate(async () => {
    const { violations } = await (globalThis as any).axe.run(document, { resultTypes: ["violations"] });
    return violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
